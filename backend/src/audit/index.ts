/** The activity timeline and audit log: its routes. */
export { registerAuditRoutes } from './routes.ts';
// The bench's bare route runs the audit page's very statement and builds the same body.
export { auditPageBody, auditPageStatement, type AuditPageRow } from './audit-queries.ts';
