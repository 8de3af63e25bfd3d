/**
 * The pipeline's API contract: what its routes take (a job as a form sends it, a stage
 * change, the list's query string) and what they answer with. The server validates with
 * these and the screens parse its answers with them; the OpenAPI document is made from
 * them. Browser-safe: zod only.
 */

export * from './job-input.ts';
export * from './job-list-query.ts';
export * from './job-view.ts';
