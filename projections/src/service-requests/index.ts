/**
 * The service requests slice's public module (`@crm/projections/service-requests`): its
 * fields, API contract and events. Browser-safe. The read model (projection.ts) and its
 * tables (migrations.ts) are wired in by read-models.ts and db/migrate.ts.
 */
export * from './fields.ts';
export * from './api.ts';
export * from './events.ts';
export { describeServiceRequestEvent } from './timeline.ts';
