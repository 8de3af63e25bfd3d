import { z } from 'zod';
import { FILLED_TEXT_PATTERN, isBlankText } from '../shared/blank-text.ts';
import { textInput } from '../shared/schemas.ts';
import { lineViewSchema } from './lines-api.ts';
import { ESTIMATE_STATUSES, REPAIR_ORDER_LIMITS } from './limits.ts';
import { invoiceTotalsSchema, lineId } from './schema-pieces.ts';

/** The estimate: as staff see and send it, and as the customer sees and decides it on the public page. */

export const estimateDecisionViewSchema = z.object({
  name: z.string(),
  decidedAt: z.string(),
  /** the customer's network address when they decided */
  address: z.string(),
  approvedLineIds: z.array(z.string()),
  declinedLineIds: z.array(z.string()),
});
export type EstimateDecisionView = z.infer<typeof estimateDecisionViewSchema>;

/** The estimate last sent for a job, as staff see it. */
export const estimateSummarySchema = z.object({
  version: z.number().int().positive(),
  status: z.enum(ESTIMATE_STATUSES),
  sentAt: z.string(),
  sentBy: z.string(),
  expiresAt: z.string(),
  /** the public page's path ("/estimate/{token}") */
  link: z.string(),
  token: z.string(),
  decision: estimateDecisionViewSchema.nullable(),
  /** the lines changed after it was sent: send it again for the customer to see them */
  outdated: z.boolean(),
});
export type EstimateSummary = z.infer<typeof estimateSummarySchema>;

/** Send an estimate (the lines as they are now); `expiresInDays` overrides the shop's default. */
export const estimateSendInput = z.strictObject({
  expiresInDays: z
    .number({ error: `expiresInDays must be a whole number from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}` })
    .int()
    .min(1)
    .max(REPAIR_ORDER_LIMITS.estimateLinkDaysMax)
    .optional(),
});

// ---- the public estimate page ----------------------------------------------------------

export const publicShopSchema = z.object({
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  /** The shop's IANA zone: the page's times are the shop's, wherever the customer opens it. */
  timeZone: z.string(),
});

/** What the customer's page shows: the estimate exactly as it was sent (never the shop's other data). */
export const publicEstimateSchema = z.object({
  shop: publicShopSchema,
  jobNumber: z.string(),
  customerName: z.string(),
  vehicle: z.string(),
  version: z.number().int().positive(),
  status: z.enum(ESTIMATE_STATUSES),
  sentAt: z.string(),
  expiresAt: z.string(),
  lines: z.array(lineViewSchema.omit({ unitCost: true })),
  totals: invoiceTotalsSchema,
  /** The estimate's tax rates (percent, "8.25"): the page works out what the lines the customer approves come to by the same rule. */
  taxRates: z.object({ partsTaxRate: z.string(), laborTaxRate: z.string() }),
  terms: z.string(),
  footer: z.string(),
  decision: estimateDecisionViewSchema.nullable(),
});
export type PublicEstimate = z.infer<typeof publicEstimateSchema>;

/** The customer's decision: every line of the estimate in exactly one of the two lists, and their name. */
export const estimateDecisionInput = z
  .strictObject({
    approvedLineIds: z.array(lineId, { error: 'approvedLineIds must be a list of line ids' }).max(REPAIR_ORDER_LIMITS.linesMax),
    declinedLineIds: z.array(lineId, { error: 'declinedLineIds must be a list of line ids' }).max(REPAIR_ORDER_LIMITS.linesMax),
    name: textInput('Name', REPAIR_ORDER_LIMITS.decisionName)
      .refine((value) => !isBlankText(value), 'Type your name to confirm')
      .meta({ type: 'string', pattern: FILLED_TEXT_PATTERN, maxLength: REPAIR_ORDER_LIMITS.decisionName }),
  })
  .superRefine((value, ctx) => {
    const approved = new Set(value.approvedLineIds);
    if (approved.size !== value.approvedLineIds.length)
      ctx.addIssue({ code: 'custom', message: 'A line is named twice', path: ['approvedLineIds'] });
    const declined = new Set(value.declinedLineIds);
    if (declined.size !== value.declinedLineIds.length || value.declinedLineIds.some((id) => approved.has(id)))
      ctx.addIssue({ code: 'custom', message: 'A line is named twice', path: ['declinedLineIds'] });
  });
export type EstimateDecisionInput = z.input<typeof estimateDecisionInput>;
