/**
 * The repair-orders slice's public module (`@crm/projections/repair-orders`): lines and
 * the rounding rule, money helpers, the API contract and the events. Browser-safe.
 */
export * from './money.ts';
export * from './totals.ts';
export * from './approved-total.ts';
export * from './api.ts';
export * from './events.ts';
export * from './state.ts';
export * from './views.ts';
export * from './timeline.ts';
