/**
 * The records slice's public module (`@crm/projections/records`): undo from history and
 * restore of deleted jobs and customers (the API contract and who may revert). Browser-safe.
 * The deleted-records read model (projection.ts) and its table (migrations.ts) are wired in
 * by read-models.ts and db/migrate.ts.
 */
export * from './api.ts';
