/**
 * The platform slice's public module (`@crm/projections/platform`): what an instance is
 * (features, subdomains), its API contract (request and response schemas) and the provider-level events.
 * Browser-safe. The read model (projection.ts) and its migrations are wired in by
 * read-models.ts and db/migrate.ts.
 */
export * from './instances.ts';
export * from './api.ts';
export * from './events.ts';
