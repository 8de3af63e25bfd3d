/**
 * The insights slice's public module (`@crm/projections/insights`): its API contract and
 * who may see it. Browser-safe. The read model (projection.ts) and its tables
 * (migrations.ts) are wired in by read-models.ts and db/migrate.ts.
 */
export * from './api.ts';
