/** The activity timeline and audit log: its routes. */
export { registerAuditRoutes } from './routes.ts';
