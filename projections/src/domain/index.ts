/**
 * @deprecated Temporary: import the slice modules (`@crm/projections/pipeline`, …,
 * `@crm/projections/shared`, `@crm/projections/events`) instead. This barrel goes away.
 */
export * from '../platform/index.ts';
export * from '../identity/index.ts';
export * from '../customers/index.ts';
export * from '../pipeline/index.ts';
export * from '../audit/index.ts';
export * from '../shared/index.ts';
export * from '../events.ts';
