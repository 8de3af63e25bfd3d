/**
 * The platform slice's public module: what the other slices and the HTTP shell may use of
 * it. Anything outside backend/src/platform imports the slice through this file only (ESLint).
 */
export { findInstanceBySubdomain, getInstance, recordInstance, updateInstance, type FirstAdminRecorder } from './instances.ts';
export { ensureReservedInstance } from './routes.ts';
export { bootstrapSuperAdmin, type SuperAdminCredentials } from './super-admin.ts';
export { registerPlatformRoutes } from './routes.ts';
export { currentSuperAdmin } from './super-admin.ts';
export { registerExportRoutes } from './export-routes.ts';
export { countInstanceEvents, instanceEventLines, resolveInstance } from './instance-export.ts';
export { ImportError, importEvents } from './instance-import.ts';
export { catchUpImported } from './import-catch-up.ts';
export { subdomainStream } from './instance-decider.ts';
