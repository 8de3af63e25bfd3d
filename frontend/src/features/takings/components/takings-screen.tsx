import { formatDate, formatDateTime, formatMoney, PAYMENT_METHOD_LABELS, parseMoney, type TakingsReport } from '@crm/projections/contract';
import { addDays, dayInZone } from '@crm/projections/shared';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DownloadIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { takingsCsvUrl, useTakings } from '../api/get-takings';
import { periodFromParams } from '../utils/takings-period';

const money = (text: string) => formatMoney(parseMoney(text, { negative: true }) ?? 0);

function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'Only staff who take payments can see the takings.';
  return errorMessage(error, 'Failed to load the takings');
}

/** A label and an amount, right-aligned, in a figures list. */
function Figure({ label, value, strong, testId }: { label: ReactNode; value: string; strong?: boolean; testId?: string }) {
  return (
    <div className={cn('flex items-baseline justify-between gap-4 py-1.5', strong && 'border-t font-semibold')}>
      <dt className={strong ? undefined : 'text-muted-foreground'}>{label}</dt>
      <dd className="tabular-nums" data-figure={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * The day's takings (or a range of days), in the shop's time zone: payments by method,
 * refunds, invoices issued, sales by parts, labor and fees, tax, and what is still owed;
 * the same as CSV. The period is kept in the address (?from&to).
 */
export function TakingsScreen({ instance, timeZone, pipelinePath }: { instance: string; timeZone: string; pipelinePath: string }) {
  const [params, setParams] = useSearchParams();
  const period = periodFromParams(params, timeZone);
  const report = useTakings(instance, period);
  const today = dayInZone(new Date(), timeZone);

  const choose = (from: string, to: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('from', from);
        next.set('to', to);
        return next;
      },
      { replace: true },
    );

  const presets = [
    { label: 'Today', from: today, to: today },
    { label: 'Yesterday', from: addDays(today, -1), to: addDays(today, -1) },
    { label: 'Last 7 days', from: addDays(today, -6), to: today },
    { label: 'This month', from: `${today.slice(0, 8)}01`, to: today },
  ];

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">Takings</h1>
          <p className="text-sm text-muted-foreground">
            {period.from === period.to
              ? formatDate(period.from, { form: 'weekday' })
              : `${formatDate(period.from, { form: 'weekday' })} to ${formatDate(period.to, { form: 'weekday' })}`}
            , in the shop&apos;s time ({timeZone}).
          </p>
        </div>
        <a href={takingsCsvUrl(instance, period)} className={buttonVariants({ variant: 'outline' })} download>
          <DownloadIcon />
          Export CSV
        </a>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-wrap gap-1.5" role="group" aria-label="Period">
          {presets.map((preset) => (
            <Button
              key={preset.label}
              size="sm"
              variant={preset.from === period.from && preset.to === period.to ? 'primary' : 'outline'}
              aria-pressed={preset.from === period.from && preset.to === period.to}
              onClick={() => choose(preset.from, preset.to)}
            >
              {preset.label}
            </Button>
          ))}
        </div>
        <div className="grid gap-1">
          <Label htmlFor="takings-from">From</Label>
          <Input
            id="takings-from"
            type="date"
            value={period.from}
            max={period.to}
            onChange={(event) =>
              event.target.value && choose(event.target.value, period.to < event.target.value ? event.target.value : period.to)
            }
            className="h-9 w-40"
          />
        </div>
        <div className="grid gap-1">
          <Label htmlFor="takings-to">To</Label>
          <Input
            id="takings-to"
            type="date"
            value={period.to}
            min={period.from}
            onChange={(event) =>
              event.target.value && choose(period.from > event.target.value ? event.target.value : period.from, event.target.value)
            }
            className="h-9 w-40"
          />
        </div>
      </div>

      {report.isPending ? <Spinner label="Loading the takings..." className="py-10" /> : null}
      {report.isError ? <Alert>{loadErrorText(report.error)}</Alert> : null}
      {report.data ? <TakingsFigures report={report.data} pipelinePath={pipelinePath} stale={report.isPlaceholderData} /> : null}
    </div>
  );
}

function TakingsFigures({ report, pipelinePath, stale }: { report: TakingsReport; pipelinePath: string; stale: boolean }) {
  return (
    <div className={cn('grid grid-cols-1 gap-4 md:grid-cols-3', stale && 'opacity-60')} aria-busy={stale || undefined}>
      <Card>
        <CardHeader>
          <CardTitle>Payments</CardTitle>
          <CardDescription>Money taken, by method; refunds paid back.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="text-sm">
            {report.payments.byMethod.map((row) => (
              <Figure
                key={row.method}
                label={`${PAYMENT_METHOD_LABELS[row.method]} (${row.count})`}
                value={money(row.amount)}
                testId={row.method}
              />
            ))}
            <Figure label={`Refunds (${report.payments.refunds.count})`} value={money(report.payments.refunds.amount)} testId="refunds" />
            <Figure label="Net takings" value={money(report.payments.net)} strong testId="net" />
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sales</CardTitle>
          <CardDescription>From the invoices issued in the period.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="text-sm">
            <Figure label="Parts" value={money(report.sales.parts)} testId="parts" />
            <Figure label="Labor" value={money(report.sales.labor)} testId="labor" />
            <Figure label="Fees" value={money(report.sales.fees)} testId="fees" />
            <Figure label="Discounts" value={formatMoney(-(parseMoney(report.sales.discounts) ?? 0))} testId="discounts" />
            <Figure label="Tax collected" value={money(report.sales.tax)} testId="tax" />
            <Figure label="Invoiced" value={money(report.sales.total)} strong testId="total" />
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Outstanding</CardTitle>
          <CardDescription>What invoiced jobs still owe, as of now.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="text-sm">
            <Figure
              label={`Jobs with a balance (${report.outstanding.count})`}
              value={money(report.outstanding.amount)}
              strong
              testId="outstanding"
            />
          </dl>
        </CardContent>
      </Card>
      <Card className="md:col-span-3">
        <CardHeader>
          <CardTitle>Invoices issued ({report.invoices.count})</CardTitle>
        </CardHeader>
        <CardContent>
          {report.invoices.items.length === 0 ? (
            <p className="text-sm text-muted-foreground">No invoices in this period.</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-sm">
                <thead>
                  <tr className="border-b text-left text-xs text-muted-foreground uppercase">
                    <th scope="col" className="py-2 pr-3">
                      Invoice
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Job
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Customer
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Issued
                    </th>
                    <th scope="col" className="py-2 text-right">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.invoices.items.map((invoice) => (
                    <tr key={`${invoice.invoiceNumber}-${invoice.revision}`} className="border-b last:border-0">
                      <td className="py-2 pr-3 font-mono whitespace-nowrap">
                        #{invoice.invoiceNumber}
                        {invoice.revision > 1 ? ` rev. ${invoice.revision}` : ''}
                      </td>
                      <td className="py-2 pr-3 whitespace-nowrap">
                        <Link
                          to={`${pipelinePath}?q=${encodeURIComponent(invoice.jobNumber)}`}
                          className="text-primary underline-offset-4 hover:underline"
                        >
                          #{invoice.jobNumber}
                        </Link>
                      </td>
                      <td className="py-2 pr-3">{invoice.customerName}</td>
                      <td className="py-2 pr-3 whitespace-nowrap text-muted-foreground">{formatDateTime(invoice.issuedAt)}</td>
                      <td className="py-2 text-right tabular-nums">{money(invoice.total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
