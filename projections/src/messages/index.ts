/**
 * The messages slice's public module (`@crm/projections/messages`): kinds, templates,
 * events and API contract. Browser-safe. The read model (projection.ts) and its tables
 * (migrations.ts) are wired in by read-models.ts and db/migrate.ts.
 */
export * from './kinds.ts';
export * from './events.ts';
export * from './api.ts';
