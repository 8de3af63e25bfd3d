import { auditProjection } from './audit/projection.ts';
import { customersProjection } from './customers/projection.ts';
import { identityProjection } from './identity/projection.ts';
import { insightsProjection } from './insights/projection.ts';
import { pipelineProjection } from './pipeline/projection.ts';
import { platformProjection } from './platform/projection.ts';
import { deletedRecordsProjection } from './records/projection.ts';
import type { Projection } from './runtime/projection.ts';
import { serviceRequestsProjection } from './service-requests/projection.ts';
import { vehiclesProjection } from './vehicles/projection.ts';

/**
 * The read-model set one projector maintains (each slice's projection.ts), applied in this
 * order per event. Their tables come from each slice's migrations.ts (db/migrate.ts).
 */
export const projections: Projection[] = [
  platformProjection,
  identityProjection,
  auditProjection,
  customersProjection,
  pipelineProjection,
  serviceRequestsProjection,
  vehiclesProjection,
  deletedRecordsProjection,
  insightsProjection,
];
