/**
 * The audit slice's public module (`@crm/projections/audit`): the audit log's and Recent
 * Activity's query schemas and API views. Browser-safe. The activity read model
 * (projection.ts, the instance timeline in words) and its migrations are wired in by
 * read-models.ts and db/migrate.ts.
 */
export * from './schemas.ts';
export * from './views.ts';
