import { balanceWords, formatMoney, type JobTotals, parseMoney, type Totals } from '@crm/projections/contract';
import { cn } from '@/lib/cn';

const cents = (text: string) => parseMoney(text, { negative: true }) ?? 0;

/**
 * The job's money: parts, labor, fees, discounts, tax, total, paid and the balance due (or the
 * refund due, when more was paid than the lines now come to).
 * `preview` is the total of the lines as typed (the shared rounding rule); paid comes from
 * the server, and the balance moves by what the typing changed.
 */
export function TotalsSummary({ totals, preview, hasLines }: { totals: JobTotals; preview: Totals | null; hasLines: boolean }) {
  const serverTotal = cents(totals.total);
  const total = preview && hasLines ? preview.total : serverTotal;
  const rows: { label: string; value: number; strong?: boolean }[] = [
    { label: 'Parts', value: preview && hasLines ? preview.parts : cents(totals.parts) },
    { label: 'Labor', value: preview && hasLines ? preview.labor : cents(totals.labor) },
    { label: 'Fees', value: preview && hasLines ? preview.fees : cents(totals.fees) },
    { label: 'Discounts', value: -(preview && hasLines ? preview.discounts : cents(totals.discounts)) },
    { label: 'Tax', value: preview && hasLines ? preview.tax : cents(totals.tax) },
    { label: 'Total', value: total, strong: true },
    { label: 'Paid', value: cents(totals.paid) },
  ];
  const balance = balanceWords(cents(totals.balance) + (total - serverTotal));
  return (
    <dl
      aria-label="Totals"
      className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1 rounded-lg border bg-muted/30 p-3 text-sm"
    >
      {rows.map((row) => (
        <div
          key={row.label}
          className={cn('contents', row.label === 'Total' && '[&>*]:border-t [&>*]:pt-1', row.label === 'Paid' && '[&>*]:pt-2')}
        >
          <dt className={cn('text-muted-foreground', row.strong && 'font-semibold text-foreground')}>{row.label}</dt>
          <dd data-total={row.label.toLowerCase()} className={cn('text-right tabular-nums', row.strong && 'font-semibold')}>
            {formatMoney(row.value)}
          </dd>
        </div>
      ))}
      <dt className="font-semibold text-foreground">{balance.label}</dt>
      <dd data-total="balance" className="text-right font-semibold tabular-nums">
        {balance.amount}
      </dd>
    </dl>
  );
}
