import { z } from 'zod';
import { isCalendarDay } from '../shared/calendar-days.ts';
import { queryParam } from '../shared/list-query.ts';
import { isStorableTime, timeRangeMessage } from '../shared/schemas.ts';
import { PAYMENT_METHODS } from './limits.ts';
import { invoiceTotalsSchema } from './schema-pieces.ts';

/** The takings report: payments, refunds, invoices and sales over days in the shop's time zone. */

const reportDay = (name: string) =>
  queryParam(name)
    .refine((value) => isCalendarDay(value), `${name} must be a date like 2025-01-31 (a day in the shop's time zone)`)
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
