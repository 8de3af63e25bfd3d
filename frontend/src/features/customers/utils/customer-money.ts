import { balanceWords, formatMoney, type JobView, parseMoney } from '@crm/projections/contract';

const cents = (text: string | undefined) => (text ? (parseMoney(text, { negative: true }) ?? 0) : 0);

/** A job that has been invoiced (its invoice stays when it is paid). */
export function jobInvoiced(job: Pick<JobView, 'stage' | 'totals'>): boolean {
  return Boolean(job.totals) && (job.stage === 'Invoiced' || job.stage === 'Paid' || cents(job.totals?.paid) !== 0);
}

/** What the customer was invoiced and still owes, over their jobs (canceled ones owe nothing). */
export function customerBalance(jobs: readonly Pick<JobView, 'stage' | 'totals'>[]): { invoiced: number; owed: number } {
  let invoiced = 0;
  let owed = 0;
  for (const job of jobs) {
    if (!jobInvoiced(job)) continue;
    invoiced += cents(job.totals?.total);
    owed += cents(job.totals?.balance);
  }
  return { invoiced, owed };
}

/** "Total $120.00 · due $20.00" for an invoiced job; null for one that is not. */
export function jobMoneyText(job: Pick<JobView, 'stage' | 'totals'>): string | null {
  if (!jobInvoiced(job)) return null;
  const balance = cents(job.totals?.balance);
  return `${formatMoney(cents(job.totals?.total))} · ${balance === 0 ? 'paid' : balanceWords(balance).text}`;
}
