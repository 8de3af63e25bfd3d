/**
 * The one-time migration of free-text vehicles (customer labels, job Vehicle texts) into
 * vehicle records: its public module.
 */
export { migrateVehicleLabels, type LabelMigrationReport } from './label-migration.ts';
