import { registerAuditRoutes } from './audit/index.ts';
import { registerCalendarRoutes } from './calendar/index.ts';
import { registerCustomerMergeRoutes } from './customer-merge/index.ts';
import { registerCustomerRoutes } from './customers/index.ts';
import { registerDashboardRoutes } from './dashboard/index.ts';
import type { RouteModule } from './http/app.ts';
import { recordFirstAdmin, registerIdentityRoutes, registerSessionRoutes } from './identity/index.ts';
import { registerInsightsRoutes } from './insights/index.ts';
import { registerLiveRoutes } from './live/index.ts';
import { consentOnCustomerRecord, registerMessageRoutes } from './messages/index.ts';
import { registerBoardRoutes, registerPipelineRoutes } from './pipeline/index.ts';
import { registerRecordRoutes } from './records/index.ts';
import { jobWithRepairOrder, registerRepairOrderRoutes } from './repair-orders/index.ts';
import { registerExportRoutes, registerPlatformRoutes } from './platform/index.ts';
import { registerServiceRequestRoutes } from './service-requests/index.ts';
import { customerVehicleRecords, registerVehicleRoutes } from './vehicles/index.ts';

/** Each slice's routes, registered on the one guarded router (platform routes come first). */
export const routeModules: RouteModule[] = [
  (router, deps, version) => registerPlatformRoutes(router, deps, version, recordFirstAdmin),
  registerIdentityRoutes,
  registerSessionRoutes,
  (router, deps) => registerCustomerRoutes(router, deps, consentOnCustomerRecord, customerVehicleRecords(deps)),
  registerCustomerMergeRoutes,
  (router, deps) => registerPipelineRoutes(router, deps, jobWithRepairOrder),
  registerBoardRoutes,
  (router, deps) => registerRecordRoutes(router, deps, customerVehicleRecords(deps)),
  registerInsightsRoutes,
  registerCalendarRoutes,
  registerServiceRequestRoutes,
  registerAuditRoutes,
  registerDashboardRoutes,
  registerLiveRoutes,
  registerExportRoutes,
  registerRepairOrderRoutes,
  registerMessageRoutes,
  registerVehicleRoutes,
];
