import {
  balanceWords,
  displayPhone,
  formatDateTime,
  formatMoney,
  type JobDetail,
  type LineView,
  parseMoney,
  type ShopSettingsView,
} from '@crm/projections/contract';
import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { DownloadIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useShopSettings } from '@/lib/shop-settings';
import { usePageTitle } from '@/lib/use-page-title';
import { useJob } from '../../api/get-job';
import { pipelineApiPath } from '../../api/pipeline-api-path';
import { LINE_KIND_LABELS } from '../../utils/line-draft';
import type { JobDocument } from './document-links';

const money = (text: string) => formatMoney(parseMoney(text, { negative: true }) ?? 0);

function lineDetail(line: LineView): string {
  if (line.kind === 'part') return `${line.quantity} × ${money(line.unitPrice)}`;
  if (line.kind === 'labor') return `${line.hours} h × ${money(line.rate)}`;
  return line.percent !== null ? `${line.percent} %` : '';
}

/**
 * The estimate or the invoice as a page to print (the browser's Print; the app's header and
 * footer are left off paper), beside its PDF. The invoice shows its frozen lines; the
 * estimate the job's lines, declined ones marked, and who approved what and when.
 */
export function JobDocumentView({
  instance,
  jobId,
  document,
  jobHref,
  instanceName,
}: {
  instance: string;
  jobId: string;
  document: JobDocument;
  /** The job's own address (its dialog in the pipeline): the document's "Job #" leads back to it. */
  jobHref: string;
  /** What the shop is called (the instance's display name): the heading when the settings name no shop, as on the PDF. */
  instanceName: string;
}) {
  const loaded = useJob(instance, jobId);
  const settings = useShopSettings(instance);
  usePageTitle(document === 'estimate' ? 'Estimate' : 'Invoice');
  if (loaded.isPending || settings.isPending) return <Spinner label="Loading the document..." className="py-16" />;
  if (loaded.isError || settings.isError)
    return <Alert>{errorMessage(loaded.error ?? settings.error, 'Could not load the document')}</Alert>;
  const job = loaded.data.detail;
  if (!job) return <NoDocument jobHref={jobHref}>This job has no repair order to print.</NoDocument>;
  const shop = settings.data.settings;
  return (
    <DocumentPage
      instance={instance}
      job={job}
      shop={shop}
      shopName={shop.shopName.trim() || instanceName}
      document={document}
      jobHref={jobHref}
    />
  );
}

/** A document that does not exist (yet): says why, and leads back to the job rather than leaving a dead end. */
function NoDocument({ jobHref, children }: { jobHref: string; children: string }) {
  return (
    <div className="mx-auto grid max-w-3xl gap-3">
      <Alert variant="info">{children}</Alert>
      <p>
        <Link to={jobHref} className="text-primary underline-offset-4 hover:underline">
          Open the job
        </Link>
      </p>
    </div>
  );
}

function DocumentPage({
  instance,
  job,
  shop,
  shopName,
  document,
  jobHref,
}: {
  instance: string;
  job: JobDetail;
  shop: ShopSettingsView;
  shopName: string;
  document: JobDocument;
  jobHref: string;
}) {
  const invoice = document === 'invoice' ? job.invoice : null;
  if (document === 'invoice' && !invoice) return <NoDocument jobHref={jobHref}>This job has not been invoiced yet.</NoDocument>;
  const lines = invoice ? invoice.lines : job.lines;
  const totals = invoice ? invoice.totals : job.totals;
  // A job priced with a single quote and no lines: its total is the quote, so the document shows
  // that as its one item, not an empty table over a breakdown of zeros that does not add up to it.
  const quoteOnly = lines.length === 0;
  const balance = balanceWords(parseMoney(job.totals.balance, { negative: true }) ?? 0);
  const decision = document === 'estimate' ? (job.estimate?.decision ?? null) : null;
  const title = invoice ? `Invoice #${invoice.invoiceNumber}${invoice.revision > 1 ? ` (revision ${invoice.revision})` : ''}` : 'Estimate';

  return (
    <article className="mx-auto grid max-w-3xl gap-6 rounded-xl border bg-card p-6 text-sm shadow-sm print:max-w-none print:border-0 print:p-0 print:shadow-none">
      <div className="flex flex-wrap justify-end gap-2 print:hidden">
        <Button variant="outline" size="sm" onClick={() => window.print()}>
          Print
        </Button>
        <a href={pipelineApiPath(instance, job.id, `${document}.pdf`)} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
          <DownloadIcon />
          PDF
        </a>
      </div>
      <header className="flex flex-wrap items-start justify-between gap-4 border-b pb-4">
        <div className="grid gap-0.5">
          <p className="text-xl font-semibold">{shopName}</p>
          {[shop.address, shop.phone, shop.email].filter(Boolean).map((text) => (
            <p key={text} className="whitespace-pre-line text-muted-foreground">
              {text}
            </p>
          ))}
        </div>
        <div className="grid gap-0.5 sm:text-right">
          <h1 className="text-xl font-semibold">{title}</h1>
          {job.jobNumber ? (
            <p>
              <Link to={jobHref} className="text-primary underline-offset-4 hover:underline print:text-foreground print:no-underline">
                Job #{job.jobNumber}
              </Link>
            </p>
          ) : (
            <p className="print:hidden">
              <Link to={jobHref} className="text-primary underline-offset-4 hover:underline">
                Open the job
              </Link>
            </p>
          )}
          <p className="text-muted-foreground">
            {invoice
              ? `Issued ${formatDateTime(invoice.issuedAt)}`
              : job.estimate
                ? `Version ${job.estimate.version}, sent ${formatDateTime(job.estimate.sentAt)}`
                : `As of ${formatDateTime(job.updatedAt)}`}
          </p>
        </div>
      </header>
      <section className="grid gap-0.5">
        <h2 className="text-xs font-semibold text-muted-foreground uppercase">Customer</h2>
        <p className="font-medium">{job.name || '—'}</p>
        {job.phone ? <p>{displayPhone(job.phone)}</p> : null}
        {job.makeModel || job.vin ? <p>{[job.makeModel, job.vin ? `VIN ${job.vin}` : ''].filter(Boolean).join(' · ')}</p> : null}
      </section>
      <table className="w-full">
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground uppercase">
            <th scope="col" className="py-2 pr-3">
              Item
            </th>
            <th scope="col" className="py-2 pr-3">
              Detail
            </th>
            <th scope="col" className="py-2 text-right">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {quoteOnly ? (
            <tr>
              <td className="py-2 pr-3">{job.part || 'Work as quoted'}</td>
              <td className="py-2 pr-3 whitespace-nowrap text-muted-foreground">Quoted price</td>
              <td className="py-2 text-right tabular-nums">{money(totals.total)}</td>
            </tr>
          ) : null}
          {lines.map((line) => {
            const declined = !invoice && line.status === 'declined';
            return (
              <tr key={line.id} className={cn('border-b align-top last:border-0', declined && 'text-muted-foreground')}>
                <td className="py-2 pr-3">
                  <span className="mr-2 text-xs text-muted-foreground">{LINE_KIND_LABELS[line.kind]}</span>
                  <span className={declined ? 'line-through' : undefined}>{line.description}</span>
                  {/* A box of its own: a phone's narrow column broke a part number at its hyphen ('(P-' over '1999)'). */}
                  {line.partNumber ? <span className="ml-1 inline-block text-xs text-muted-foreground">({line.partNumber})</span> : null}
                  {declined ? <span className="ml-2 text-xs font-semibold text-destructive">Declined</span> : null}
                  {!invoice && line.status === 'approved' ? (
                    <span className="ml-2 text-xs font-semibold text-success">Approved</span>
                  ) : null}
                </td>
                <td className="py-2 pr-3 whitespace-nowrap text-muted-foreground">{lineDetail(line)}</td>
                <td className={cn('py-2 text-right tabular-nums', declined && 'line-through')}>{money(line.total)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <dl className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1">
        {(
          [
            ...(quoteOnly
              ? []
              : ([
                  ['Parts', totals.parts],
                  ['Labor', totals.labor],
                  ['Fees', totals.fees],
                  ['Discounts', `-${totals.discounts}`],
                  ['Tax', totals.tax],
                ] as const)),
            ['Total', totals.total],
            ...(invoice
              ? ([
                  ['Paid', job.totals.paid],
                  [balance.label, balance.amount],
                ] as const)
              : []),
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="contents">
            <dt className={label === 'Total' || label === balance.label ? 'font-semibold' : 'text-muted-foreground'}>{label}</dt>
            <dd className={cn('text-right tabular-nums', (label === 'Total' || label === balance.label) && 'font-semibold')}>
              {label === balance.label ? value : money(value)}
            </dd>
          </div>
        ))}
      </dl>
      {decision ? (
        <section className="grid gap-0.5 rounded-md border p-3">
          <h2 className="text-xs font-semibold text-muted-foreground uppercase">Customer&apos;s approval</h2>
          <p>
            {decision.name} approved {decision.approvedLineIds.length} and declined {decision.declinedLineIds.length}{' '}
            {decision.approvedLineIds.length + decision.declinedLineIds.length === 1 ? 'line' : 'lines'} on{' '}
            {formatDateTime(decision.decidedAt)}.
          </p>
        </section>
      ) : null}
      {shop.terms ? (
        <section className="grid gap-1 text-xs">
          <h2 className="font-semibold">Terms</h2>
          <p className="whitespace-pre-line text-muted-foreground">{shop.terms}</p>
        </section>
      ) : null}
      {shop.documentFooter ? (
        <p className="border-t pt-3 text-center text-xs whitespace-pre-line text-muted-foreground">{shop.documentFooter}</p>
      ) : null}
    </article>
  );
}
