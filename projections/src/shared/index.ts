/**
 * What every slice shares (`@crm/projections/shared`): list and time query helpers,
 * revisions (ETag / If-Match), phones and the timeline's entry shape. Browser-safe.
 */
export * from './list-query.ts';
export * from './cursor.ts';
export * from './ids.ts';
export * from './revisions.ts';
export * from './phone.ts';
export * from './email.ts';
export * from './format.ts';
export * from './calendar-days.ts';
export * from './schemas.ts';
export * from './blank-text.ts';
export * from './timeline.ts';
export * from './never.ts';
