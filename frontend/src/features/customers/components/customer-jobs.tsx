import { balanceWords, formatDate, formatDateTime, formatMoney, formatQuote, type CustomerView } from '@crm/projections/contract';
import { Link } from 'react-router-dom';
import { customerJobsPath, jobPath } from '@/config/paths';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { useCustomerJobs } from '../api/get-customer-jobs';
import { loadErrorMessage } from '../utils/load-error-message';
import { customerBalance, jobInvoiced, jobMoneyText } from '../utils/customer-money';

/**
 * The pipeline jobs linked to this customer, newest first (canceled ones too), each a link that
 * opens it. While the page shows the customer as of a moment (`asOf`), only the jobs created by
 * then are listed: a job made later did not exist yet.
 */
export function CustomerJobs({
  instance,
  customer,
  pipelinePath,
  asOf = null,
}: {
  instance: string;
  customer: CustomerView;
  pipelinePath: string;
  asOf?: string | null;
}) {
  const jobs = useCustomerJobs(instance, customer);

  if (jobs.isPending) return <Spinner label="Loading jobs..." />;
  if (jobs.isError) return <Alert>Could not load the jobs: {loadErrorMessage(jobs.error)}</Alert>;
  const moment = asOf ? Date.parse(asOf) : null;
  const shown = moment === null ? jobs.data : jobs.data.filter((job) => Date.parse(job.createdAt) <= moment);
  const asOfNote =
    asOf !== null ? (
      <p className="text-sm text-muted-foreground" data-jobs-as-of>
        Jobs created by {formatDateTime(asOf, { seconds: true })}, each as it is now.
      </p>
    ) : null;
  if (shown.length === 0)
    return (
      <div className="grid gap-2">
        {asOfNote}
        <p className="text-sm text-muted-foreground">
          {asOf ? 'No pipeline jobs for this customer by then.' : 'No pipeline jobs for this customer.'}
        </p>
      </div>
    );

  const balance = customerBalance(shown);
  const invoiced = shown.filter(jobInvoiced);
  return (
    <div className="grid gap-3">
      {asOfNote}
      {invoiced.length > 0 || balance.owed !== 0 ? (
        <div
          className="flex flex-wrap items-baseline justify-between gap-2 rounded-lg border bg-muted/30 px-3 py-2 text-sm"
          data-customer-balance
        >
          <span>
            {invoiced.length} {invoiced.length === 1 ? 'invoice' : 'invoices'}, {formatMoney(balance.invoiced)} invoiced
          </span>
          <span>
            {balanceWords(balance.owed).label}{' '}
            <strong className={balance.owed > 0 ? 'text-destructive tabular-nums' : 'tabular-nums'}>
              {balanceWords(balance.owed).amount}
            </strong>
          </span>
        </div>
      ) : null}
      <ul className="divide-y rounded-lg border">
        {shown.map((job) => (
          <li key={job.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2.5 text-sm">
            <div className="grid min-w-0 gap-0.5">
              <Link to={jobPath(pipelinePath, job.id)} className="font-medium text-primary underline-offset-4 hover:underline">
                {job.jobNumber ? `Job #${job.jobNumber}` : 'Job'}
                {job.part ? ` · ${job.part}` : ''}
              </Link>
              <span className="text-xs text-muted-foreground">
                {[job.makeModel, job.appointment ? `Appointment ${formatDate(job.appointment)}` : `Created ${formatDate(job.createdAt)}`]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              {jobInvoiced(job) ? (
                <a
                  href={`/api/${encodeURIComponent(instance)}/pipeline/${encodeURIComponent(job.id)}/invoice.pdf`}
                  target="_blank"
                  rel="noreferrer"
                  className="text-xs text-primary underline-offset-4 hover:underline"
                >
                  Invoice PDF
                </a>
              ) : null}
              {jobMoneyText(job) ? (
                <span className="tabular-nums">{jobMoneyText(job)}</span>
              ) : job.quote ? (
                <span className="tabular-nums">{formatQuote(job.quote)}</span>
              ) : null}
              <Badge
                variant={
                  job.stage === 'Canceled' ? 'destructive' : job.stage === 'Paid' || job.stage === 'Completed' ? 'success' : 'secondary'
                }
              >
                {job.stage}
              </Badge>
            </div>
          </li>
        ))}
      </ul>
      <Link to={customerJobsPath(pipelinePath, customer.id)} className="text-sm text-primary underline-offset-4 hover:underline">
        Open this customer&apos;s jobs in the pipeline
      </Link>
    </div>
  );
}
