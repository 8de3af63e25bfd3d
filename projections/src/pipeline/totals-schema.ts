import { z } from 'zod';

/**
 * A job's money as the API answers it (on the job, and on each row of the pipeline's
 * lists): decimal strings; `total` is before payments, `balance` what is still due
 * (negative: owed to the customer). Its own module so the pipeline's list rows can carry it.
 */
export const jobTotalsSchema = z.object({
  parts: z.string(),
  labor: z.string(),
  fees: z.string(),
  /** taken off, as a positive amount */
  discounts: z.string(),
  tax: z.string(),
  total: z.string(),
  paid: z.string(),
  balance: z.string(),
});
export type JobTotals = z.infer<typeof jobTotalsSchema>;
