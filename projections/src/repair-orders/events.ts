import { z } from 'zod';
import { PAYMENT_METHODS } from './api.ts';
import { LINE_KINDS } from './totals.ts';

/**
 * Repair-order events. Lines, estimates, invoices and payments live on the job's own
 * stream (`job-{id}`): one revision for If-Match, one history, one fold for time travel.
 * Shop settings have a stream per instance (`shopsettings-{instanceId}`) and invoice numbers
 * a reservation stream each (`invoicenumber-{instanceId}-{n}`). Amounts are integer cents,
 * quantities thousandths, hours hundredths, rates thousandths of a percent (money.ts).
 */

const cents = z.number().int();
const id = z.string();

export const repairLineSchema = z.object({
  id,
  kind: z.enum(LINE_KINDS),
  description: z.string(),
  partNumber: z.string(),
  quantity: z.number().int().nonnegative(),
  unitCost: cents.nullable(),
  unitPrice: cents,
  hours: z.number().int().nonnegative(),
  rate: cents,
  shopRate: z.boolean(),
  technician: z.string(),
  amount: cents.nullable(),
  percent: z.number().int().nonnegative().nullable(),
  appliesTo: z.string().nullable(),
  taxable: z.boolean(),
});

/** The fields a LineChanged may carry. */
export const LINE_CHANGE_FIELDS = [
  'description',
  'partNumber',
  'quantity',
  'unitCost',
  'unitPrice',
  'hours',
  'rate',
  'shopRate',
  'technician',
  'amount',
  'percent',
  'appliesTo',
  'taxable',
] as const;
export type LineChangeField = (typeof LINE_CHANGE_FIELDS)[number];

const lineValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** Totals in cents as a document froze them. */
export const frozenTotalsSchema = z.object({
  parts: cents,
  labor: cents,
  fees: cents,
  discounts: cents,
  partsTax: cents,
  laborTax: cents,
  tax: cents,
  total: cents,
});

const taxRates = { partsTaxRate: z.number().int().nonnegative(), laborTaxRate: z.number().int().nonnegative() };

/** Every repair-order event on a job names the job (number and name), as the job's own events do. */
const label = { jobId: id, jobNumber: z.string(), name: z.string() };
const revert = { revertOf: z.string().optional() };

export const SHOP_SETTINGS_FIELDS = [
  'shopName',
  'address',
  'phone',
  'email',
  'laborRate',
  'partsTaxRate',
  'laborTaxRate',
  'documentFooter',
  'terms',
  'estimateLinkDays',
] as const;
export type ShopSettingsField = (typeof SHOP_SETTINGS_FIELDS)[number];

const decision = {
  ...label,
  version: z.number().int().positive(),
  token: z.string(),
  approvedLineIds: z.array(id),
  declinedLineIds: z.array(id),
  /** what the customer typed to confirm */
  customerName: z.string(),
  /** their network address */
  address: z.string(),
  decidedAt: z.string(),
};

export const repairOrderEventSchemas = {
  /**
   * `position`: its index among the lines after it was added. A line event carries the
   * shop's tax rates when it was written: the job's totals use them from then on.
   */
  LineAdded: z.object({ ...label, line: repairLineSchema, position: z.number().int().nonnegative(), ...taxRates, ...revert }),
  LineChanged: z.object({
    ...label,
    lineId: id,
    kind: z.enum(LINE_KINDS),
    description: z.string(),
    changes: z.array(z.object({ field: z.enum(LINE_CHANGE_FIELDS), oldValue: lineValue, newValue: lineValue })).min(1),
    ...taxRates,
    ...revert,
  }),
  /** `line`: as it was; `position`: where it was. */
  LineRemoved: z.object({ ...label, line: repairLineSchema, position: z.number().int().nonnegative(), ...taxRates, ...revert }),
  LinesReordered: z.object({ ...label, from: z.array(id), to: z.array(id), ...revert }),
  /**
   * A version of the estimate went to the customer: its lines and totals exactly as sent
   * (the public page shows them, whatever changes later), the link's token and expiry.
   */
  EstimateSent: z.object({
    ...label,
    version: z.number().int().positive(),
    token: z.string(),
    expiresAt: z.string(),
    lines: z.array(repairLineSchema),
    /** lines declined on an earlier decision stay marked */
    declinedLineIds: z.array(id),
    ...taxRates,
    totals: frozenTotalsSchema,
  }),
  EstimateRevoked: z.object({ ...label, version: z.number().int().positive(), token: z.string() }),
  /** The customer's decision on the public page (some lines approved). */
  EstimateApproved: z.object(decision),
  /** The customer declined every line. */
  EstimateDeclined: z.object(decision),
  /**
   * An invoice (revision 1) or a new revision of it: the lines not declined, frozen, with the
   * tax rates and totals as issued.
   */
  InvoiceIssued: z.object({
    ...label,
    invoiceNumber: z.number().int().positive(),
    revision: z.number().int().positive(),
    lines: z.array(repairLineSchema),
    ...taxRates,
    totals: frozenTotalsSchema,
  }),
  PaymentRecorded: z.object({
    ...label,
    paymentId: id,
    amount: cents.positive(),
    method: z.enum(PAYMENT_METHODS),
    reference: z.string(),
    receivedAt: z.string(),
    ...revert,
  }),
  RefundRecorded: z.object({
    ...label,
    paymentId: id,
    amount: cents.positive(),
    method: z.enum(PAYMENT_METHODS),
    reference: z.string(),
    reason: z.string(),
    receivedAt: z.string(),
    ...revert,
  }),
  /** The invoice number is taken (stream `invoicenumber-{instanceId}-{n}`, appended with no_stream). */
  InvoiceNumberReserved: z.object({ instanceId: id, invoiceNumber: z.number().int().positive(), jobId: id }),
  ShopSettingsUpdated: z.object({
    instanceId: id,
    changes: z
      .array(
        z.object({
          field: z.enum(SHOP_SETTINGS_FIELDS),
          oldValue: z.union([z.string(), z.number()]),
          newValue: z.union([z.string(), z.number()]),
        }),
      )
      .min(1),
  }),
};

type Schemas = typeof repairOrderEventSchemas;

/** The repair-order events of a `job-{id}` stream. */
export const REPAIR_ORDER_JOB_EVENT_TYPES = [
  'LineAdded',
  'LineChanged',
  'LineRemoved',
  'LinesReordered',
  'EstimateSent',
  'EstimateRevoked',
  'EstimateApproved',
  'EstimateDeclined',
  'InvoiceIssued',
  'PaymentRecorded',
  'RefundRecorded',
] as const satisfies readonly (keyof Schemas)[];
export type RepairOrderJobEventType = (typeof REPAIR_ORDER_JOB_EVENT_TYPES)[number];
export type RepairOrderJobEvent = { [K in RepairOrderJobEventType]: { type: K; data: z.infer<Schemas[K]> } }[RepairOrderJobEventType];
export type ShopSettingsEvent = { type: 'ShopSettingsUpdated'; data: z.infer<Schemas['ShopSettingsUpdated']> };

export function isRepairOrderJobEvent<E extends { type: string }>(event: E): event is E & RepairOrderJobEvent {
  return (REPAIR_ORDER_JOB_EVENT_TYPES as readonly string[]).includes(event.type);
}
