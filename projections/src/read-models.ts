import { auditProjection } from './audit/projection.ts';
import { auditBulk } from './audit/rebuild-rows.ts';
import { customersProjection } from './customers/projection.ts';
import { customerVehicleListProjection } from './customers/vehicle-list.ts';
import { customersBulk } from './customers/rebuild-rows.ts';
import { identityProjection } from './identity/projection.ts';
import { identityBulk } from './identity/rebuild-rows.ts';
import { insightsProjection } from './insights/projection.ts';
import { insightsBulk } from './insights/rebuild-rows.ts';
import { messagesProjection } from './messages/projection.ts';
import { pipelineProjection } from './pipeline/projection.ts';
import { pipelineBulk } from './pipeline/rebuild-rows.ts';
import { platformProjection } from './platform/projection.ts';
import { deletedRecordsProjection } from './records/projection.ts';
import { repairOrdersProjection } from './repair-orders/projection.ts';
import type { Projection } from './runtime/projection.ts';
import { serviceRequestsProjection } from './service-requests/projection.ts';
import { vehiclesProjection } from './vehicles/projection.ts';
import { vehiclesBulk } from './vehicles/rebuild-rows.ts';

/**
 * The read-model set one projector maintains (each slice's projection.ts), applied in this
 * order per event. Their tables come from each slice's migrations.ts (db/migrate.ts). Some
 * carry a rebuild's set-based path (their slice's rebuild-rows.ts, runtime/rebuild-replay.ts).
 */
export const projections: Projection[] = [
  platformProjection,
  { ...identityProjection, bulk: identityBulk },
  { ...auditProjection, bulk: auditBulk, keysAfterLoad: ['activity'] },
  { ...customersProjection, bulk: customersBulk, keysAfterLoad: ['customers'] },
  { ...pipelineProjection, bulk: pipelineBulk, keysAfterLoad: ['job_history', 'jobs'] },
  serviceRequestsProjection,
  { ...vehiclesProjection, bulk: vehiclesBulk, keysAfterLoad: ['vehicles', 'customer_vehicle_labels'] },
  // After the customers and vehicles projections: it reads their rows.
  customerVehicleListProjection,
  deletedRecordsProjection,
  { ...insightsProjection, bulk: insightsBulk, keysAfterLoad: ['insight_jobs', 'insight_stage_intervals'] },
  repairOrdersProjection,
  messagesProjection,
];

/**
 * What every append on the PostgreSQL store writes in its own transaction (a projection
 * declaring `inline: true`); the projector and a rebuild still run the whole list above.
 */
export const inlineProjections: Projection[] = projections.filter((projection) => projection.inline);

/**
 * Whether a command that appended events of these types must wait for the projector before
 * it answers, on a store that writes the inline projections: when an asynchronous projection
 * whose readers do not wait for it themselves takes one of them.
 */
export function projectorNeededFor(types: readonly string[]): boolean {
  return projections.some(
    (projection) =>
      !projection.inline &&
      !projection.awaitedByReads &&
      (!projection.eventTypes || projection.eventTypes.some((type) => types.includes(type))),
  );
}
