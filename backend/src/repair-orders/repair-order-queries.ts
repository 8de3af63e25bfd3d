import type { Knex } from 'knex';
import { moneyText, PAYMENT_METHODS, type TakingsReport } from '@crm/projections/repair-orders';
import { withTenant } from '../infra/tenant-db.ts';
import { csvCell } from '../shared/csv.ts';

/** The highest invoice number the shop has issued (the read model's; 0 when none). */
export async function highestInvoiceNumber(knex: Knex, instanceId: string): Promise<number> {
  const row = (await knex.withSchema('rm').from('invoices').where('instance_id', instanceId).max('invoice_number as highest').first()) as
    { highest: number | null } | undefined;
  return row?.highest ?? 0;
}

const num = (value: unknown) => Number(value ?? 0);

/**
 * The takings of the days `from`..`to` (both included) in the shop's time zone: payments by
 * method and refunds (by when the money changed hands), invoices issued and the sales they
 * made (a revision counts by what it changed), and the balances still due on invoiced jobs now.
 */
export async function takingsReport(knex: Knex, instanceId: string, timeZone: string, from: string, to: string): Promise<TakingsReport> {
  return await withTenant(knex, instanceId, async (db) => {
    const payments = (await db
      .withSchema('rm')
      .from('payments')
      .where('instance_id', instanceId)
      .whereRaw(`received_at >= (?::date)::timestamp AT TIME ZONE ? AND received_at < ((?::date) + 1)::timestamp AT TIME ZONE ?`, [
        from,
        timeZone,
        to,
        timeZone,
      ])
      .groupBy('kind', 'method')
      .select('kind', 'method', db.raw('count(*)::int AS count'), db.raw('sum(amount)::bigint AS amount'))) as Array<{
      kind: 'payment' | 'refund';
      method: string;
      count: number;
      amount: string;
    }>;
    const invoices = (await db
      .withSchema('rm')
      .from('invoices')
      .where('instance_id', instanceId)
      .whereRaw(`issued_at >= (?::date)::timestamp AT TIME ZONE ? AND issued_at < ((?::date) + 1)::timestamp AT TIME ZONE ?`, [
        from,
        timeZone,
        to,
        timeZone,
      ])
      .orderBy('issued_at')
      .limit(5000)
      .select('*')) as Array<Record<string, unknown>>;
    const outstanding = (await db
      .withSchema('rm')
      .from('job_money')
      .where('instance_id', instanceId)
      .whereNotNull('invoice_total')
      .whereRaw('invoice_total - paid > 0')
      .select(db.raw('count(*)::int AS count'), db.raw('coalesce(sum(invoice_total - paid), 0)::bigint AS amount'))
      .first()) as { count: number; amount: string } | undefined;

    const byMethod = PAYMENT_METHODS.map((method) => {
      const row = payments.find((p) => p.kind === 'payment' && p.method === method);
      return { method, count: row?.count ?? 0, amount: moneyText(num(row?.amount)) };
    });
    const refundRows = payments.filter((p) => p.kind === 'refund');
    const refundTotal = refundRows.reduce((sum, row) => sum + num(row.amount), 0);
    const paymentTotal = payments.filter((p) => p.kind === 'payment').reduce((sum, row) => sum + num(row.amount), 0);
    const sum = (key: string) => invoices.reduce((total, row) => total + num(row[key]), 0);
    return {
      from,
      to,
      timeZone,
      payments: {
        byMethod,
        refunds: { count: refundRows.reduce((n, row) => n + row.count, 0), amount: moneyText(refundTotal) },
        net: moneyText(paymentTotal + refundTotal),
      },
      invoices: {
        count: invoices.length,
        items: invoices.map((row) => ({
          invoiceNumber: num(row.invoice_number),
          revision: num(row.revision),
          jobId: String(row.job_id),
          jobNumber: String(row.job_number),
          customerName: String(row.customer_name),
          issuedAt: new Date(row.issued_at as string).toISOString(),
          total: moneyText(num(row.total)),
        })),
      },
      sales: {
        parts: moneyText(sum('delta_parts')),
        labor: moneyText(sum('delta_labor')),
        fees: moneyText(sum('delta_fees')),
        discounts: moneyText(sum('delta_discounts')),
        tax: moneyText(sum('delta_tax')),
        total: moneyText(sum('delta_total')),
      },
      outstanding: { count: outstanding?.count ?? 0, amount: moneyText(num(outstanding?.amount)) },
    };
  });
}

/** An instant as `YYYY-MM-DD HH:mm` on the shop's clock, like the days the report is cut by. */
const localTime = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));

/** The report as CSV: one section per part, a blank line between. */
export function takingsCsv(report: TakingsReport): string {
  const rows: (string | number)[][] = [
    ['Takings', `${report.from} to ${report.to}`, report.timeZone],
    [],
    ['Payments by method', 'Count', 'Amount'],
    ...report.payments.byMethod.map((row) => [row.method, row.count, row.amount]),
    ['refunds', report.payments.refunds.count, report.payments.refunds.amount],
    ['net', '', report.payments.net],
    [],
    ['Sales', 'Amount'],
    ['parts', report.sales.parts],
    ['labor', report.sales.labor],
    ['fees', report.sales.fees],
    ['discounts', report.sales.discounts],
    ['tax', report.sales.tax],
    ['total', report.sales.total],
    [],
    ['Invoices issued', 'Revision', 'Job', 'Customer', 'Issued at', 'Total'],
    ...report.invoices.items.map((row) => [
      row.invoiceNumber,
      row.revision,
      row.jobNumber,
      row.customerName,
      localTime(row.issuedAt, report.timeZone),
      row.total,
    ]),
    [],
    ['Balances outstanding', 'Count', 'Amount'],
    ['invoiced jobs', report.outstanding.count, report.outstanding.amount],
  ];
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Cents of one job in one week (its Monday, YYYY-MM-DD, in the shop's calendar). */
export interface WeeklyJobMoney {
  jobId: string;
  week: string;
  cents: number;
}

/**
 * Money per job and week between two instants, for the insights: `invoiced`, what the
 * invoices issued made (a revision counts by what it changed, as in the takings), and
 * `collected`, the payments less refunds by when the money changed hands. `invoicedJobIds`:
 * which of `jobIds` have an invoice at all (a job without one is an old single-quote job).
 * `db`: a connection already scoped to the instance.
 */
export async function weeklyJobMoney(
  db: Knex,
  instanceId: string,
  timeZone: string,
  start: Date,
  end: Date,
  jobIds: string[],
): Promise<{ invoiced: WeeklyJobMoney[]; collected: WeeklyJobMoney[]; invoicedJobIds: Set<string> }> {
  const byWeek = async (table: 'invoices' | 'payments', at: string, amount: string) =>
    (
      (await db
        .withSchema('rm')
        .from(table)
        .where('instance_id', instanceId)
        .andWhere(at, '>=', start)
        .andWhere(at, '<', end)
        .groupBy('job_id', 'week')
        .select(
          'job_id',
          db.raw(`to_char(date_trunc('week', ?? AT TIME ZONE ?), 'YYYY-MM-DD') AS week`, [at, timeZone]),
          db.raw('sum(??)::bigint AS cents', [amount]),
        )) as Array<{ job_id: string; week: string; cents: string }>
    ).map((row) => ({ jobId: row.job_id, week: row.week, cents: num(row.cents) }));
  const withInvoice =
    jobIds.length === 0
      ? []
      : ((await db
          .withSchema('rm')
          .from('invoices')
          .where('instance_id', instanceId)
          .whereIn('job_id', jobIds)
          .distinct()
          .pluck('job_id')) as string[]);
  return {
    invoiced: await byWeek('invoices', 'issued_at', 'delta_total'),
    collected: await byWeek('payments', 'received_at', 'amount'),
    invoicedJobIds: new Set(withInvoice),
  };
}
