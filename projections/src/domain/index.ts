export * from './instances.ts';
export * from './users.ts';
export * from './customers.ts';
export * from './jobs.ts';
export * from './audit.ts';
export * from './events/index.ts';
export * from './list-query.ts';
export * from './revisions.ts';
