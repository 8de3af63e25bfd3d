import { z } from 'zod';
import { queryParam } from '../shared/list-query.ts';
import { blankOr, isStorableTime, textInput, timeRangeMessage } from '../shared/schemas.ts';
import { jobViewSchema } from '../pipeline/index.ts';
import { MONEY_MAX_CENTS, parseScaled } from './money.ts';
import { jobTotalsSchema } from '../pipeline/index.ts';
import { LINE_KINDS, type LineKind } from './totals.ts';

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

// ---- limits and vocabularies ----------------------------------------------------------

export const REPAIR_ORDER_LIMITS = {
  description: 500,
  partNumber: 60,
  technician: 100,
  reference: 100,
  reason: 500,
  decisionName: 200,
  shopName: 200,
  address: 500,
  phone: 40,
  email: 254,
  documentFooter: 2000,
  terms: 5000,
  /** quantity, in units (3 decimals) */
  quantityMax: 99_999,
  /** hours on one labor line (2 decimals) */
  hoursMax: 9_999,
  /** lines on one job */
  linesMax: 200,
  estimateLinkDaysMax: 365,
  /** days in one takings report */
  reportDaysMax: 366,
} as const;

export const PAYMENT_METHODS = ['cash', 'card', 'check', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** A line on an estimate: not decided yet, or as the customer decided on the last estimate they answered. */
export const LINE_STATUSES = ['pending', 'approved', 'declined'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

export const ESTIMATE_STATUSES = ['sent', 'approved', 'declined', 'revoked', 'expired', 'superseded'] as const;
export type EstimateStatus = (typeof ESTIMATE_STATUSES)[number];

export const DEFAULT_ESTIMATE_LINK_DAYS = 14;

// ---- input pieces ----------------------------------------------------------------------

const amountMessage = (label: string) => `${label} must be an amount in dollars like 12.49 (at most 2 decimals)`;

/**
 * What the API document says an amount is (the server also takes "$1,250" and numbers with
 * cents; the document states the plain forms every client can send): whole dollars as a JSON
 * number, or text with at most two decimals, within the bound; '' or null clears it. A
 * `nonZero` amount is required and leaves zero out of every form.
 */
function moneyDocument(options: MoneyOptions) {
  const maxDollars = Math.floor((options.max ?? MONEY_MAX_CENTS) / 100);
  // Text stops one digit short of the bound, so every string the pattern allows is within it.
  const digits = String(maxDollars).length - 1;
  const sign = options.negative ? '-?' : '';
  if (options.nonZero) {
    return {
      anyOf: [
        { type: 'integer', minimum: 1, maximum: maxDollars },
        ...(options.negative ? [{ type: 'integer', minimum: -maxDollars, maximum: -1 }] : []),
        { type: 'string', pattern: `^${sign}([1-9]\\d{0,${digits - 1}}(\\.\\d{1,2})?|0\\.(0[1-9]|[1-9]\\d?))$` },
      ],
    };
  }
  return {
    anyOf: [
      { type: 'integer', minimum: options.negative ? -maxDollars : 0, maximum: maxDollars },
      { type: 'string', pattern: `^${sign}\\d{1,${digits}}(\\.\\d{1,2})?$` },
      { const: '' },
      { type: 'null' },
    ],
  };
}

interface MoneyOptions {
  negative?: boolean;
  max?: number;
  /** for the document only: the schema that uses it refuses zero and an absent amount itself */
  nonZero?: boolean;
}

/** Dollars and cents ("12.49", "$1,250", 89.95) → cents; null or '' → null. */
export const moneyInput = (label: string, options: MoneyOptions = {}) =>
  z
    .union([z.string(), z.number(), z.null()], { error: amountMessage(label) })
    .transform((value, ctx): number | null => {
      if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
      const cents = parseScaled(value, 2, { negative: options.negative });
      const max = options.max ?? MONEY_MAX_CENTS;
      if (cents === null) {
        ctx.addIssue({ code: 'custom', message: amountMessage(label) });
        return z.NEVER;
      }
      if (Math.abs(cents) > max) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most ${(max / 100).toLocaleString('en-US')} dollars` });
        return z.NEVER;
      }
      return cents;
    })
    .meta(moneyDocument(options));

/** The document's plain forms of a decimal: a whole number as JSON, or text with at most `digits` decimals. */
function decimalDocument(digits: number, max: number) {
  return {
    anyOf: [
      { type: 'integer', minimum: 0, maximum: max },
      { type: 'string', pattern: `^\\d{1,${String(max).length - 1}}(\\.\\d{1,${digits}})?$` },
      { const: '' },
      { type: 'null' },
    ],
  };
}

/** A decimal with at most `digits` decimals from 0 to `max` → integer scaled by 10^digits; null or '' → null. */
const decimalInput = (label: string, digits: number, max: number, unit = '') =>
  z
    .union([z.string(), z.number(), z.null()], { error: `${label} must be a number` })
    .transform((value, ctx): number | null => {
      if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
      const scaled = parseScaled(value, digits);
      if (scaled === null || scaled > max * 10 ** digits) {
        ctx.addIssue({ code: 'custom', message: `${label} must be a number from 0 to ${max}${unit} with at most ${digits} decimals` });
        return z.NEVER;
      }
      return scaled;
    })
    .meta(decimalDocument(digits, max));

/** A percentage like "8.25" (at most 3 decimals, 0 to 100) → thousandths of a percent. */
export const percentInput = (label: string) => decimalInput(label, 3, 100, ' %');

const lineId = z.uuid({ error: 'must be a line id' }).transform((value) => value.toLowerCase());

// ---- shop settings ---------------------------------------------------------------------

/**
 * A change to the shop's settings: a field left out stays as it is; null or '' clears a
 * text (rates cleared are 0). Rates are percentages ("8.25"), the labor rate dollars per hour.
 */
export const shopSettingsInput = z.strictObject({
  shopName: textInput('Shop name', REPAIR_ORDER_LIMITS.shopName).optional(),
  address: textInput('Address', REPAIR_ORDER_LIMITS.address).optional(),
  phone: textInput('Phone', REPAIR_ORDER_LIMITS.phone).optional(),
  email: textInput('Email', REPAIR_ORDER_LIMITS.email)
    .refine((value) => value === '' || z.email().safeParse(value).success, 'Email must be an email address')
    .meta(blankOr({ type: 'string', format: 'email', maxLength: REPAIR_ORDER_LIMITS.email }))
    .optional(),
  laborRate: moneyInput('Labor rate')
    .transform((value) => value ?? 0)
    .optional(),
  partsTaxRate: percentInput('Parts tax rate')
    .transform((value) => value ?? 0)
    .optional(),
  laborTaxRate: percentInput('Labor tax rate')
    .transform((value) => value ?? 0)
    .optional(),
  documentFooter: textInput('Document footer', REPAIR_ORDER_LIMITS.documentFooter).optional(),
  terms: textInput('Terms', REPAIR_ORDER_LIMITS.terms).optional(),
  estimateLinkDays: z
    .number({ error: `estimateLinkDays must be a whole number of days from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}` })
    .int(`estimateLinkDays must be a whole number of days from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}`)
    .min(1, `estimateLinkDays must be a whole number of days from 1 to ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}`)
    .max(REPAIR_ORDER_LIMITS.estimateLinkDaysMax, `estimateLinkDays must be at most ${REPAIR_ORDER_LIMITS.estimateLinkDaysMax}`)
    .optional(),
});
export type ShopSettingsInput = z.input<typeof shopSettingsInput>;
export type ShopSettingsChanges = z.output<typeof shopSettingsInput>;

export const shopSettingsSchema = z.object({
  shopName: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  /** dollars per hour, "125.00" */
  laborRate: z.string(),
  /** percent, "8.25" */
  partsTaxRate: z.string(),
  laborTaxRate: z.string(),
  documentFooter: z.string(),
  terms: z.string(),
  estimateLinkDays: z.number().int().positive(),
  /** The settings stream's revision (ETag); send it back as If-Match to save only over this version. */
  revision: z.number().int().nonnegative(),
  updatedAt: z.string().nullable(),
});
export type ShopSettingsView = z.infer<typeof shopSettingsSchema>;

// ---- lines -----------------------------------------------------------------------------

const lineFields = {
  description: textInput('Description', REPAIR_ORDER_LIMITS.description).optional(),
  /** part */
  partNumber: textInput('Part number', REPAIR_ORDER_LIMITS.partNumber).optional(),
  /** part: units, default 1 ("1.5") */
  quantity: decimalInput('Quantity', 3, REPAIR_ORDER_LIMITS.quantityMax).optional(),
  /** part: what the shop paid for one, dollars (kept off customer documents) */
  unitCost: moneyInput('Unit cost').optional(),
  /** part: price of one, dollars */
  unitPrice: moneyInput('Unit price').optional(),
  /** labor: hours ("1.25") */
  hours: decimalInput('Hours', 2, REPAIR_ORDER_LIMITS.hoursMax).optional(),
  /** labor: dollars per hour; left out, null or '': the shop's labor rate */
  rate: moneyInput('Rate').optional(),
  /** labor */
  technician: textInput('Technician', REPAIR_ORDER_LIMITS.technician).optional(),
  /** fee or discount: a fixed amount, dollars */
  amount: moneyInput('Amount').optional(),
  /** fee or discount: a percentage ("10"); a fee's base is the parts and labor, a job discount's everything before tax, a line discount's its line */
  percent: percentInput('Percent').optional(),
  /** discount: the id of the line it reduces; left out or null: the whole job */
  appliesTo: lineId.nullable().optional(),
  /** part, labor, fee: taxed (default true for parts and fees, the shop's labor tax rate decides for labor: default true) */
  taxable: z.boolean({ error: 'taxable must be true or false' }).optional(),
};

/** Which fields each kind takes; a field of another kind must be left out, null or ''. */
export const LINE_KIND_FIELDS: Record<LineKind, readonly (keyof typeof lineFields)[]> = {
  part: ['description', 'partNumber', 'quantity', 'unitCost', 'unitPrice', 'taxable'],
  labor: ['description', 'hours', 'rate', 'technician', 'taxable'],
  fee: ['description', 'amount', 'percent', 'taxable'],
  discount: ['description', 'amount', 'percent', 'appliesTo'],
};

export type LineChanges = { [K in keyof typeof lineFields]?: z.output<(typeof lineFields)[K]> };

/** A line's fields that this kind does not take but were given a value. */
export function misplacedLineFields(kind: LineKind, changes: LineChanges): string[] {
  return (Object.keys(changes) as (keyof LineChanges)[]).filter((field) => {
    const value = changes[field];
    return !LINE_KIND_FIELDS[kind].includes(field) && value !== undefined && value !== null && value !== '';
  });
}

/** Alternatives without their blank forms ('' and null): a value that must be there. */
function filled(document: { anyOf: Array<Record<string, unknown>> }) {
  return { anyOf: document.anyOf.filter((alternative) => !('const' in alternative) && alternative.type !== 'null') };
}

/**
 * What the API document says a new line is: one shape per kind (and for fees and discounts,
 * one with an amount and one with a percent), each naming only its kind's fields and
 * requiring what that kind needs. The server's checks say the same in code (above).
 */
function lineKindsDocument() {
  const text = (max: number) => ({ type: ['string', 'null'], maxLength: max });
  const money = moneyDocument({});
  const fields: Record<keyof typeof lineFields, Record<string, unknown>> = {
    description: text(REPAIR_ORDER_LIMITS.description),
    partNumber: text(REPAIR_ORDER_LIMITS.partNumber),
    quantity: decimalDocument(3, REPAIR_ORDER_LIMITS.quantityMax),
    unitCost: money,
    unitPrice: money,
    hours: decimalDocument(2, REPAIR_ORDER_LIMITS.hoursMax),
    rate: money,
    technician: text(REPAIR_ORDER_LIMITS.technician),
    amount: money,
    percent: decimalDocument(3, 100),
    appliesTo: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'null' }] },
    taxable: { type: 'boolean' },
  };
  const shape = (kind: LineKind, needs: Partial<Record<keyof typeof lineFields, Record<string, unknown>>>, leaveOut: string[] = []) => ({
    type: 'object',
    properties: {
      kind: { const: kind },
      ...Object.fromEntries(LINE_KIND_FIELDS[kind].filter((field) => !leaveOut.includes(field)).map((field) => [field, fields[field]])),
      ...needs,
      position: { type: 'integer', minimum: 0, maximum: REPAIR_ORDER_LIMITS.linesMax },
    },
    required: ['kind', ...Object.keys(needs)],
    additionalProperties: false,
  });
  return {
    type: undefined,
    properties: undefined,
    required: undefined,
    additionalProperties: undefined,
    oneOf: [
      shape('part', { unitPrice: filled(money) }),
      shape('labor', { hours: filled(fields.hours as ReturnType<typeof decimalDocument>) }),
      shape('fee', { amount: filled(money) }, ['percent']),
      shape('fee', { percent: filled(fields.percent as ReturnType<typeof decimalDocument>) }, ['amount']),
      shape('discount', { amount: filled(money) }, ['percent']),
      shape('discount', { percent: filled(fields.percent as ReturnType<typeof decimalDocument>) }, ['amount']),
    ],
  };
}

/** A new line (`POST …/pipeline/{id}/lines`): its kind and the fields that fit it; `position` (0-based) places it, default last. */
export const lineInput = z
  .strictObject({
    kind: z.enum(LINE_KINDS, { error: `kind must be one of: ${LINE_KINDS.join(', ')}` }),
    ...lineFields,
    position: z.number({ error: 'position must be a whole number' }).int().min(0).max(REPAIR_ORDER_LIMITS.linesMax).optional(),
  })
  .superRefine((value, ctx) => {
    const { kind, position: _position, ...changes } = value;
    for (const field of misplacedLineFields(kind, changes))
      ctx.addIssue({ code: 'custom', message: `${field} does not apply to a ${kind} line`, path: [field] });
    if (kind === 'part' && (value.unitPrice === undefined || value.unitPrice === null))
      ctx.addIssue({ code: 'custom', message: 'A part line needs a unit price', path: ['unitPrice'] });
    if (kind === 'labor' && (value.hours === undefined || value.hours === null))
      ctx.addIssue({ code: 'custom', message: 'A labor line needs its hours', path: ['hours'] });
    if (kind === 'fee' || kind === 'discount') {
      const hasAmount = value.amount !== undefined && value.amount !== null;
      const hasPercent = value.percent !== undefined && value.percent !== null;
      if (hasAmount === hasPercent)
        ctx.addIssue({ code: 'custom', message: `A ${kind} line needs either an amount or a percent`, path: ['amount'] });
    }
  })
  .meta(lineKindsDocument());
export type LineInput = z.input<typeof lineInput>;
export type NewLine = z.output<typeof lineInput>;

/** A change to a line (`PUT …/lines/{lineId}`): the fields sent change, the rest stay; the kind stays. */
export const lineChangesInput = z.strictObject(lineFields);
export type LineChangesInput = z.input<typeof lineChangesInput>;

/** The job's lines in a new order: every line id, once each. */
export const lineOrderInput = z.strictObject({
  lineIds: z.array(lineId, { error: 'lineIds must be a list of line ids' }).max(REPAIR_ORDER_LIMITS.linesMax),
});

export const lineViewSchema = z.object({
  id: z.string(),
  kind: z.enum(LINE_KINDS),
  description: z.string(),
  partNumber: z.string(),
  /** units, shortest form ("1.5") */
  quantity: z.string(),
  unitCost: z.string().nullable(),
  unitPrice: z.string(),
  /** "1.25" */
  hours: z.string(),
  /** dollars per hour */
  rate: z.string(),
  /** the rate is the shop's labor rate (as it was when the line was written) */
  shopRate: z.boolean(),
  technician: z.string(),
  amount: z.string().nullable(),
  /** "10" for 10 % */
  percent: z.string().nullable(),
  appliesTo: z.string().nullable(),
  taxable: z.boolean(),
  /** the line's amount, rounded to the cent (discounts negative); a declined line shows what it would have been */
  total: z.string(),
  status: z.enum(LINE_STATUSES),
});
export type LineView = z.infer<typeof lineViewSchema>;

export { jobTotalsSchema, type JobTotals } from '../pipeline/index.ts';

// ---- estimate --------------------------------------------------------------------------

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

// ---- invoice ---------------------------------------------------------------------------

const invoiceTotalsSchema = jobTotalsSchema.omit({ paid: true, balance: true });

/** An invoice revision: its lines and totals exactly as issued. */
export const invoiceViewSchema = z.object({
  invoiceNumber: z.number().int().positive(),
  revision: z.number().int().positive(),
  issuedAt: z.string(),
  issuedBy: z.string(),
  lines: z.array(lineViewSchema),
  totals: invoiceTotalsSchema,
  /** the job's lines changed after this revision was issued: issue a new revision to bill them */
  outdated: z.boolean(),
});
export type InvoiceView = z.infer<typeof invoiceViewSchema>;

/** `POST …/{id}/invoice`: no fields (the lines not declined, as they are now). */
export const invoiceIssueInput = z.strictObject({});

// ---- payments --------------------------------------------------------------------------

/** A payment (positive amount) or a refund (negative amount, with a reason). */
export const paymentInput = z
  .strictObject({
    // Required and not zero (a refund is negative); the document's forms leave zero out.
    amount: moneyInput('Amount', { negative: true, nonZero: true }),
    method: z.enum(PAYMENT_METHODS, { error: `method must be one of: ${PAYMENT_METHODS.join(', ')}` }),
    reference: textInput('Reference', REPAIR_ORDER_LIMITS.reference).optional(),
    /** when the money changed hands (ISO time with offset); default now */
    when: z.iso
      .datetime({ offset: true, error: 'when must be an ISO date and time with a time zone' })
      // A time PostgreSQL can hold (year 0000 was accepted, then parked by the projection).
      .refine((value) => isStorableTime(Date.parse(value)), timeRangeMessage('when'))
      // The server's clock refuses one ahead of it (more than 5 minutes): said here, as no schema can.
      .meta({ description: 'When the money changed hands (default now); not in the future' })
      .optional(),
    /** a refund's reason */
    reason: textInput('Reason', REPAIR_ORDER_LIMITS.reason).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.amount === null || value.amount === 0)
      ctx.addIssue({ code: 'custom', message: 'Amount must not be zero (a refund is a negative amount)', path: ['amount'] });
    else if (value.amount < 0 && !value.reason) ctx.addIssue({ code: 'custom', message: 'A refund needs a reason', path: ['reason'] });
    else if (value.amount > 0 && value.reason) ctx.addIssue({ code: 'custom', message: 'Only a refund takes a reason', path: ['reason'] });
  });
export type PaymentInput = z.input<typeof paymentInput>;

export const paymentViewSchema = z.object({
  id: z.string(),
  kind: z.enum(['payment', 'refund']),
  /** refunds negative */
  amount: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string(),
  reason: z.string(),
  receivedAt: z.string(),
  recordedBy: z.string(),
});
export type PaymentView = z.infer<typeof paymentViewSchema>;

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
      .refine((value) => value !== '', 'Type your name to confirm')
      .meta({ type: 'string', pattern: '\\S', maxLength: REPAIR_ORDER_LIMITS.decisionName }),
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

// ---- takings report --------------------------------------------------------------------

const reportDay = (name: string) =>
  queryParam(name)
    .refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}$/.test(value) &&
        !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
        new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
      `${name} must be a date like 2025-01-31 (a day in the shop's time zone)`,
    )
    // A day PostgreSQL and the shop's time zone can hold (year 0000 once answered 500).
    .refine((value) => isStorableTime(Date.parse(`${value}T00:00:00Z`)), timeRangeMessage(name))
    .meta({ type: 'string', format: 'date' });

/** Days in the shop's time zone, both included; left out: today. */
export const takingsQuery = z.object({ from: reportDay('from').optional(), to: reportDay('to').optional() }).superRefine((value, ctx) => {
  if (value.from && value.to && value.from > value.to)
    ctx.addIssue({ code: 'custom', message: 'from must not be after to', path: ['from'] });
});
export type TakingsQuery = z.output<typeof takingsQuery>;

const moneyCount = z.object({ count: z.number().int().nonnegative(), amount: z.string() });

export const takingsReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  timeZone: z.string(),
  payments: z.object({
    byMethod: z.array(moneyCount.extend({ method: z.enum(PAYMENT_METHODS) })),
    refunds: moneyCount,
    /** payments less refunds */
    net: z.string(),
  }),
  /** invoices issued (revisions count by what they changed) in the range */
  invoices: z.object({
    count: z.number().int().nonnegative(),
    items: z.array(
      z.object({
        invoiceNumber: z.number().int().positive(),
        revision: z.number().int().positive(),
        jobId: z.string(),
        jobNumber: z.string(),
        customerName: z.string(),
        issuedAt: z.string(),
        total: z.string(),
      }),
    ),
  }),
  sales: invoiceTotalsSchema,
  /** every invoiced job's balance still due now */
  outstanding: moneyCount,
});
export type TakingsReport = z.infer<typeof takingsReportSchema>;
