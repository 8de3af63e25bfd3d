export * from './instances.ts';
export * from './users.ts';
export * from './customers.ts';
export * from './jobs.ts';
export * from './audit.ts';
export * from './events/index.ts';
