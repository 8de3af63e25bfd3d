/**
 * The service requests slice's public module: what the other slices may use of it. Anything
 * outside backend/src/service-requests imports the slice through this file only (ESLint).
 */
export { serviceRequestSummary } from './service-request-queries.ts';
export { registerServiceRequestRoutes } from './routes.ts';
export { archiveServiceRequest, convertServiceRequest, submitServiceRequest } from './service-request-service.ts';
