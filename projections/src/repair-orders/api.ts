import { z } from 'zod';
import { jobTotalsSchema, jobViewSchema } from '../pipeline/index.ts';
import { estimateSummarySchema } from './estimate-api.ts';
import { invoiceViewSchema, paymentViewSchema } from './billing-api.ts';
import { lineViewSchema } from './lines-api.ts';

/**
 * The repair orders' API contract: shop settings, a job's lines and totals, the estimate
 * sent to the customer and their decision on the public page, invoices, payments and
 * refunds, and the takings report. Amounts are decimal strings ("12.49") both ways;
 * inside they are integer cents (see money.ts). Browser-safe: zod only.
 *
 * Routes (`{id}` a job; every job route answers `jobDetailSchema` with an ETag, and the
 * writes take If-Match: the job's revision):
 * - `GET /api/{instance}/settings` (any user) → shopSettingsSchema;
 *   `PUT` (instance admin; If-Match optional) shopSettingsInput → shopSettingsSchema
 * - `POST /api/{instance}/pipeline/{id}/lines` lineInput (canWrite) → jobDetail (201)
 * - `PUT|DELETE /api/{instance}/pipeline/{id}/lines/{lineId}` lineChangesInput (canWrite) → jobDetail
 * - `POST /api/{instance}/pipeline/{id}/lines/reorder` lineOrderInput (canWrite) → jobDetail
 * - `POST /api/{instance}/pipeline/{id}/estimate/send` estimateSendInput (canWrite) → estimateSentSchema
 * - `POST /api/{instance}/pipeline/{id}/estimate/revoke` (canWrite) → jobDetail
 * - `GET /api/public/estimates/{token}` (no session) → publicEstimateSchema
 * - `POST /api/public/estimates/{token}/decision` estimateDecisionInput (no session) → publicEstimateSchema
 * - `POST /api/{instance}/pipeline/{id}/invoice` invoiceIssueInput (canWrite) → jobDetail (201)
 * - `POST /api/{instance}/pipeline/{id}/payments` paymentInput (canWrite) → jobDetail (201)
 * - `GET /api/{instance}/pipeline/{id}/estimate.pdf`, `…/invoice.pdf` (canRead) → application/pdf
 * - `GET /api/{instance}/reports/takings?from=&to=` (canWrite: who takes payments closes the day) → takingsReportSchema; `…/takings.csv` → text/csv
 */
export * from './limits.ts';
export { moneyInput, percentInput } from './schema-pieces.ts';
export * from './settings-api.ts';
export * from './lines-api.ts';
export { jobTotalsSchema, type JobTotals } from '../pipeline/index.ts';
export * from './estimate-api.ts';
export * from './billing-api.ts';
export * from './takings-api.ts';

// ---- the job with its repair order -----------------------------------------------------

/** One job with its lines, totals, estimate, invoice and payments: what the job's routes answer. */
export const jobDetailSchema = jobViewSchema.extend({
  lines: z.array(lineViewSchema),
  totals: jobTotalsSchema,
  estimate: estimateSummarySchema.nullable(),
  /** the latest revision */
  invoice: invoiceViewSchema.nullable(),
  payments: z.array(paymentViewSchema),
});
export type JobDetail = z.infer<typeof jobDetailSchema>;

/** `POST …/estimate/send`'s answer: the link to give the customer, and the job. */
export const estimateSentSchema = z.object({
  token: z.string(),
  /** the public page's path, "/estimate/{token}" */
  link: z.string(),
  /** the same with the server's origin */
  url: z.string(),
  expiresAt: z.string(),
  version: z.number().int().positive(),
  job: jobDetailSchema,
});
export type EstimateSent = z.infer<typeof estimateSentSchema>;
