/**
 * The identity slice's public module: what the other slices may use of it. Anything outside
 * backend/src/identity imports the slice through this file only (ESLint).
 */
export { createUser, recordFirstAdmin } from './user-service.ts';
export { unassignableReason } from './user-queries.ts';
export { registerIdentityRoutes } from './routes.ts';
export { registerSessionRoutes } from './session-routes.ts';
