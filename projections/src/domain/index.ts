export * from './instances.ts';
export * from './events/index.ts';
