import { parseMoney } from '@crm/projections/contract';
import type { JobView } from '@crm/projections/pipeline';

/** A job's money as the lists show it: integer cents from the API's decimal strings. */
export interface JobMoney {
  /** The job has lines: its total is what it costs (its quote follows it). */
  itemized: boolean;
  total: number;
  paid: number;
  balance: number;
  /** Worth showing the balance: something was paid, or the job is invoiced and still owes. */
  showBalance: boolean;
}

const cents = (text: string | undefined) => (text ? (parseMoney(text, { negative: true }) ?? 0) : 0);

export function jobMoney(job: Pick<JobView, 'totals' | 'stage'>): JobMoney {
  const totals = job.totals;
  const total = cents(totals?.total);
  const paid = cents(totals?.paid);
  const balance = cents(totals?.balance);
  const stage = job.stage;
  // A job without lines keeps its single quote; with lines, parts, labor or fees add up to something.
  const itemized = Boolean(totals) && cents(totals?.parts) + cents(totals?.labor) + cents(totals?.fees) !== 0;
  return { itemized, total, paid, balance, showBalance: Boolean(totals) && (paid !== 0 || stage === 'Invoiced' || stage === 'Paid') };
}
