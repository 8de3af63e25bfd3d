/**
 * The pipeline slice's public module (`@crm/projections/pipeline`): its vocabulary, fields,
 * API contract (request and response schemas), formatters and events. Browser-safe. The read model
 * (projection.ts) and its tables (migrations.ts) are wired in by read-models.ts and
 * db/migrate.ts.
 */
export * from './stages.ts';
export * from './fields.ts';
export * from './api.ts';
export * from './calendar-api.ts';
export * from './format.ts';
export * from './events.ts';
export { jobTotalsSchema, type JobTotals } from './totals-schema.ts';
export { describeJobEvent, jobReference } from './timeline.ts';
