import { registerAuditRoutes } from './audit/routes.ts';
import { registerCalendarRoutes } from './calendar/index.ts';
import { registerCustomerMergeRoutes } from './customer-merge/index.ts';
import { registerCustomerRoutes } from './customers/routes.ts';
import { registerDashboardRoutes } from './dashboard/index.ts';
import type { RouteModule } from './http/app.ts';
import { recordFirstAdmin } from './identity/index.ts';
import { registerIdentityRoutes } from './identity/routes.ts';
import { registerInsightsRoutes } from './insights/index.ts';
import { registerLiveRoutes } from './live/index.ts';
import { registerMessageRoutes } from './messages/index.ts';
import { registerSessionRoutes } from './identity/session-routes.ts';
import { registerBoardRoutes } from './pipeline/board-routes.ts';
import { registerPipelineRoutes } from './pipeline/routes.ts';
import { registerRecordRoutes } from './records/index.ts';
import { jobWithRepairOrder, registerRepairOrderRoutes } from './repair-orders/index.ts';
import { registerExportRoutes } from './platform/export-routes.ts';
import { registerPlatformRoutes } from './platform/index.ts';
import { registerServiceRequestRoutes } from './service-requests/index.ts';
import { registerVehicleRoutes } from './vehicles/index.ts';

/** Each slice's routes, registered on the one guarded router (platform routes come first). */
export const routeModules: RouteModule[] = [
  (router, deps, version) => registerPlatformRoutes(router, deps, version, recordFirstAdmin),
  registerIdentityRoutes,
  registerSessionRoutes,
  registerCustomerRoutes,
  registerCustomerMergeRoutes,
  (router, deps) => registerPipelineRoutes(router, deps, jobWithRepairOrder),
  registerBoardRoutes,
  registerRecordRoutes,
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
