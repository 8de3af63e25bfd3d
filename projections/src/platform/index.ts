/**
 * The platform slice's public module (`@crm/projections/platform`): what an instance is
 * (features, subdomains), input schemas, API views and the provider-level events.
 * Browser-safe. The read model (projection.ts) and its migrations are wired in by
 * read-models.ts and db/migrate.ts.
 */
export * from './instances.ts';
export * from './schemas.ts';
export * from './views.ts';
export * from './events.ts';
