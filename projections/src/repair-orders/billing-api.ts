import { z } from 'zod';
import { isStorableTime, textInput, timeRangeMessage } from '../shared/schemas.ts';
import { lineViewSchema } from './lines-api.ts';
import { PAYMENT_METHODS, REPAIR_ORDER_LIMITS } from './limits.ts';
import { invoiceTotalsSchema, moneyInput } from './schema-pieces.ts';

/** Invoices (each revision exactly as issued), payments and refunds. */

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
      // abort: a text that is no time at all gets that one message, not the range's too.
      .datetime({ offset: true, error: 'when must be an ISO date and time with a time zone', abort: true })
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
