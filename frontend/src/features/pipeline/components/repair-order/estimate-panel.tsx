import { type EstimateStatus, formatDateTime } from '@crm/projections/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { useRevokeEstimate } from '../../api/revoke-estimate';
import { useSendEstimate } from '../../api/send-estimate';
import { estimateSentText } from '../../utils/estimate-texts';
import { DocumentLinks } from './document-links';
import type { RepairOrderPanelProps } from './panel-props';

const STATUS: Record<EstimateStatus, { label: string; variant: BadgeVariant }> = {
  sent: { label: 'Sent, awaiting the customer', variant: 'default' },
  approved: { label: 'Answered', variant: 'success' },
  declined: { label: 'Declined', variant: 'destructive' },
  revoked: { label: 'Link revoked', variant: 'outline' },
  expired: { label: 'Link expired', variant: 'outline' },
  superseded: { label: 'Replaced by a newer version', variant: 'outline' },
};

/**
 * The estimate for the customer: send it (a link to a page where they approve or decline
 * each line without signing in), copy the link, revoke it; who decided what and when shows
 * here as soon as they do (the job is read again on every change).
 */
export function EstimatePanel({ instance, job, loaded, canWrite, onSaved, linesSaving = false }: RepairOrderPanelProps) {
  const send = useSendEstimate(instance);
  const revoke = useRevokeEstimate(instance);
  const [error, setError] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const estimate = job.estimate;
  const url = estimate ? new URL(estimate.link, window.location.origin).toString() : '';
  const live = estimate?.status === 'sent';
  // A new version is for lines that changed since, or a link that no longer works: the same
  // lines again would only replace a link the customer may still open, or ask again what
  // they answered.
  const resendable = !estimate || estimate.outdated || (estimate.status !== 'sent' && estimate.status !== 'approved');
  const linesById = new Map(job.lines.map((line) => [line.id, line]));
  const describe = (ids: readonly string[]) =>
    ids.map((id) => linesById.get(id)?.description || 'a line since removed').join(', ') || 'none';

  const handleSend = () => {
    if (send.isPending || linesSaving || job.lines.length === 0) return;
    setError(null);
    setCopied(false);
    send.mutate(
      { jobId: job.id, etag: loaded.etag },
      {
        onSuccess: (sent, input) => onSaved({ job: sent.job, detail: sent.job, etag: sent.etag }, input.etag),
        onError: (failure) => {
          reportFailure('Send estimate failed', failure);
          setError(errorMessage(failure, 'Could not send the estimate'));
        },
      },
    );
  };

  const handleRevoke = () => {
    if (revoke.isPending || linesSaving) return;
    setError(null);
    revoke.mutate(
      { jobId: job.id, etag: loaded.etag },
      {
        onSuccess: (saved, sent) => onSaved(saved, sent.etag),
        onError: (failure) => {
          reportFailure('Revoke estimate failed', failure);
          setError(errorMessage(failure, 'Could not revoke the link'));
        },
      },
    );
  };

  const handleCopy = () => {
    navigator.clipboard
      ?.writeText(url)
      .then(() => setCopied(true))
      .catch((failure: unknown) => reportFailure('Copying the link failed', failure));
  };

  return (
    <section aria-labelledby="estimate-heading" className="grid content-start gap-3 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="estimate-heading" className="text-base font-semibold">
          Estimate
        </h3>
        {estimate ? (
          <Badge variant={STATUS[estimate.status].variant} data-estimate-status={estimate.status}>
            {STATUS[estimate.status].label}
          </Badge>
        ) : (
          <Badge variant="outline">Not sent</Badge>
        )}
      </div>

      {estimate ? <p className="text-sm text-muted-foreground">{estimateSentText(estimate)}</p> : null}

      {estimate?.decision ? (
        <div role="status" className="grid gap-1 rounded-md bg-success/10 p-2 text-sm">
          <p>
            <strong className="font-semibold">{estimate.decision.name}</strong> answered on {formatDateTime(estimate.decision.decidedAt)}
            {estimate.decision.address ? ` (from ${estimate.decision.address})` : ''}.
          </p>
          <p>Approved: {describe(estimate.decision.approvedLineIds)}.</p>
          <p>Declined: {describe(estimate.decision.declinedLineIds)}.</p>
        </div>
      ) : null}

      {estimate?.outdated ? (
        <Alert variant="info">
          The lines changed after version {estimate.version} was sent: send it again for the customer to see them.
        </Alert>
      ) : null}

      {estimate && live ? (
        <div className="grid gap-1">
          <label htmlFor="estimate-link" className="text-xs font-medium text-muted-foreground">
            Link for the customer
          </label>
          <div className="flex gap-2">
            <Input
              id="estimate-link"
              value={url}
              readOnly
              onFocus={(event) => event.currentTarget.select()}
              className="h-9 font-mono text-xs"
            />
            <Button variant="outline" size="sm" className="h-9" onClick={handleCopy}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          </div>
        </div>
      ) : null}

      <Alert>{error}</Alert>

      <div className="flex flex-wrap items-center gap-2">
        {canWrite ? (
          <>
            {resendable ? (
              <Button size="sm" onClick={handleSend} aria-disabled={send.isPending || linesSaving || job.lines.length === 0 || undefined}>
                {send.isPending ? 'Sending...' : estimate ? 'Send new version' : 'Send estimate'}
              </Button>
            ) : null}
            {live ? (
              <Button variant="outline" size="sm" onClick={handleRevoke} aria-disabled={revoke.isPending || linesSaving || undefined}>
                Revoke link
              </Button>
            ) : null}
          </>
        ) : null}
        <DocumentLinks instance={instance} jobId={job.id} document="estimate" />
      </div>
      {canWrite && job.lines.length === 0 ? <p className="text-xs text-muted-foreground">Add lines to send an estimate.</p> : null}
    </section>
  );
}
