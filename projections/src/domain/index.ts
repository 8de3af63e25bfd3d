export * from './instances.ts';
