/**
 * The audit slice's public module (`@crm/projections/audit`): the audit log's and Recent
 * Activity's API contract (query and response schemas) and how a change reads in words. Browser-safe. The activity read model
 * (projection.ts, the instance timeline in words) and its migrations are wired in by
 * read-models.ts and db/migrate.ts.
 */
export * from './api.ts';
export * from './format.ts';
export * from './changes-sql.ts';
