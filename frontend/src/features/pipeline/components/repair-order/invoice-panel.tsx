import { formatDateTime, formatMoney, parseMoney } from '@crm/projections/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { useIssueInvoice } from '../../api/issue-invoice';
import { DocumentLinks } from './document-links';
import type { RepairOrderPanelProps } from './panel-props';

/**
 * The job's invoice: issuing one numbers it (the shop's next invoice number), freezes its
 * lines and moves the job to Invoiced; after a change to the lines a new revision is issued.
 */
export function InvoicePanel({ instance, job, loaded, canWrite, onSaved, linesSaving = false }: RepairOrderPanelProps) {
  const issue = useIssueInvoice(instance);
  const [error, setError] = useState<string | null>(null);
  const invoice = job.invoice;

  const handleIssue = () => {
    if (issue.isPending || linesSaving) return;
    setError(null);
    issue.mutate(
      { jobId: job.id, etag: loaded.etag },
      {
        onSuccess: (saved, sent) => onSaved(saved, sent.etag),
        onError: (failure) => {
          reportFailure('Issue invoice failed', failure);
          setError(errorMessage(failure, 'Could not create the invoice'));
        },
      },
    );
  };

  return (
    <section aria-labelledby="invoice-heading" className="grid content-start gap-3 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="invoice-heading" className="text-base font-semibold">
          {invoice ? `Invoice #${invoice.invoiceNumber}` : 'Invoice'}
        </h3>
        {invoice ? (
          <Badge variant={invoice.outdated ? 'outline' : 'success'}>
            {invoice.revision > 1 ? `Revision ${invoice.revision}` : 'Issued'}
            {invoice.outdated ? ' · lines changed since' : ''}
          </Badge>
        ) : (
          <Badge variant="outline">Not invoiced</Badge>
        )}
      </div>
      {invoice ? (
        <p className="text-sm text-muted-foreground">
          Issued {formatDateTime(invoice.issuedAt)}
          {invoice.issuedBy ? ` by ${invoice.issuedBy}` : ''} for{' '}
          <span className="font-medium text-foreground tabular-nums">{formatMoney(parseMoney(invoice.totals.total) ?? 0)}</span>.
        </p>
      ) : null}
      {invoice?.outdated ? (
        <Alert variant="info">
          The lines changed after this invoice was issued: issue a new revision to bill them (each revision is kept).
        </Alert>
      ) : null}
      <Alert>{error}</Alert>
      <div className="flex flex-wrap items-center gap-2">
        {canWrite && (!invoice || invoice.outdated) ? (
          <Button size="sm" onClick={handleIssue} aria-disabled={issue.isPending || linesSaving || undefined}>
            {issue.isPending ? 'Creating...' : invoice ? `Issue revision ${invoice.revision + 1}` : 'Create invoice'}
          </Button>
        ) : null}
        {invoice ? <DocumentLinks instance={instance} jobId={job.id} document="invoice" /> : null}
      </div>
    </section>
  );
}
