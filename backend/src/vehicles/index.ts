/**
 * The vehicles slice's public module: what the other slices may use of it. Anything outside
 * backend/src/vehicles imports the slice through this file only (ESLint).
 */
export { registerVehicleRoutes } from './routes.ts';
export { vehicleStream, vehicleDecider, vehicleMigrationStream, MileageLowerError } from './vehicle-decider.ts';
export { vehicleForJob, jobMileageAppends, newCustomerVehicleAppend, newCustomerVehicleVin, type JobVehicle } from './vehicle-jobs.ts';
export { vinRefusal, vinReservation, VinTakenError } from './vehicle-vins.ts';
export { customerVehicleIds } from './vehicle-queries.ts';
export { addVehicle } from './vehicle-service.ts';
export { customerVehicleRecords } from './vehicle-customer.ts';
