/**
 * The vehicles slice's public module (`@crm/projections/vehicles`): fields, VIN check and
 * decoder, API contract and events. Browser-safe. The read model (projection.ts) and its
 * tables (migrations.ts) are wired in by read-models.ts and db/migrate.ts.
 */
export * from './fields.ts';
export * from './vin.ts';
export * from './wmi.ts';
export * from './api.ts';
export * from './events.ts';
export { describeVehicleEvent } from './timeline.ts';
