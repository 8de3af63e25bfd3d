/**
 * The identity slice's public module (`@crm/projections/identity`): roles and permissions,
 * credentials, the API contract (request and response schemas), the account record's revision and the users' events.
 * Browser-safe. The read model (projection.ts) and its migrations are wired in by
 * read-models.ts and db/migrate.ts.
 */
export * from './permissions.ts';
export * from '../shared/credentials.ts';
export * from './api.ts';
export * from './records.ts';
export * from './events.ts';
