import { MESSAGE_CHANNEL_LABELS, MESSAGE_KIND_LABELS, type MessageStatus, type MessageView } from '@crm/projections/messages';
import { formatDateTime } from '@crm/projections/shared';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { type MessageFilter, useMessages, useMessageTemplates, useRetryMessage } from './messages-api';

const STATUS_LABELS: Record<MessageStatus, string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed', 'not-sent': 'Not sent' };
const STATUS_BADGES: Record<MessageStatus, BadgeVariant> = {
  queued: 'secondary',
  sent: 'success',
  failed: 'destructive',
  'not-sent': 'outline',
};

function when(message: MessageView): string {
  if (message.status === 'sent' && message.sentAt) return `Sent ${formatDateTime(message.sentAt)}`;
  if (message.status === 'queued') {
    const due = message.nextAttemptAt ?? message.sendAfter;
    return new Date(due) > new Date() ? `Goes out ${formatDateTime(due)}` : `Queued ${formatDateTime(message.queuedAt)}`;
  }
  if (message.retrying && message.nextAttemptAt) return `Tries again ${formatDateTime(message.nextAttemptAt)}`;
  if (message.lastAttemptAt) return `Last tried ${formatDateTime(message.lastAttemptAt)}`;
  return `Recorded ${formatDateTime(message.updatedAt)}`;
}

/**
 * Where a message's job and customer open, when the list is not already theirs and the shop
 * has that screen; null leaves the link out.
 */
export interface MessageRecordLinks {
  job?: (jobId: string) => string | null;
  customer?: (customerId: string) => string | null;
}

/**
 * One message: what, to whom, its state with the reason, and (for a failed or unsent one) a
 * retry. No retry while its channel is not set up for the shop: it would only be recorded as
 * not sent again, and the reason already says whom to ask.
 */
function MessageRow({
  message,
  onRetry,
  retrying,
  canRetry,
  channelSetUp,
  recordLinks,
}: {
  message: MessageView;
  onRetry: () => void;
  retrying: boolean;
  canRetry: boolean;
  channelSetUp: boolean;
  recordLinks: MessageRecordLinks;
}) {
  const [open, setOpen] = useState(false);
  const bodyId = `message-body-${message.id}`;
  const jobHref = message.jobId ? (recordLinks.job?.(message.jobId) ?? null) : null;
  const customerHref = message.customerId ? (recordLinks.customer?.(message.customerId) ?? null) : null;
  return (
    <li className="grid gap-2 rounded-lg border p-3" data-testid="message-row">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={STATUS_BADGES[message.status]}>{STATUS_LABELS[message.status]}</Badge>
        <span className="font-medium">{MESSAGE_KIND_LABELS[message.kind]}</span>
        <span className="text-muted-foreground text-sm">
          {MESSAGE_CHANNEL_LABELS[message.channel]} to {message.to}
        </span>
        <span className="text-muted-foreground ml-auto text-sm">{when(message)}</span>
      </div>
      {message.reason ? (
        <p className={message.status === 'failed' ? 'text-destructive text-sm' : 'text-muted-foreground text-sm'}>{message.reason}</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="ghost" size="sm" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen((v) => !v)}>
          {open ? 'Hide message' : 'Show message'}
        </Button>
        {jobHref ? (
          <Link to={jobHref} className={buttonVariants({ variant: 'link', size: 'sm' })}>
            Open the job
          </Link>
        ) : null}
        {customerHref ? (
          <Link to={customerHref} className={buttonVariants({ variant: 'link', size: 'sm' })}>
            Open the customer
          </Link>
        ) : null}
        {canRetry && channelSetUp && (message.status === 'failed' || message.status === 'not-sent') ? (
          <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying…' : 'Retry'}
          </Button>
        ) : null}
      </div>
      {open ? (
        <div id={bodyId} className="bg-muted/40 rounded-md p-3 text-sm">
          {/* Said over the text it is about: on the row itself it was a third "not sent" beside the badge and the reason. */}
          {message.status === 'not-sent' ? (
            <p className="text-muted-foreground mb-2 text-xs font-medium tracking-wide uppercase">Not sent — shown as it would have gone</p>
          ) : null}
          {message.subject ? <p className="mb-2 font-medium">Subject: {message.subject}</p> : null}
          <p className="whitespace-pre-wrap">{message.body}</p>
          {message.attachments.length > 0 ? <p className="text-muted-foreground mt-2">Attached: {message.attachments.join(', ')}</p> : null}
          {/* Only admins are given it: the provider's own answer, for whoever looks after the server. */}
          {message.detail ? (
            <p className="text-muted-foreground mt-2 text-xs">
              Technical detail: <span className="font-mono">{message.detail}</span>
            </p>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** The outbox for a shop, a job or a customer. */
export function MessageList({
  instance,
  filter,
  canRetry,
  emptyText,
  recordLinks = {},
}: {
  instance: string;
  filter: MessageFilter;
  canRetry: boolean;
  emptyText: string;
  recordLinks?: MessageRecordLinks;
}) {
  const messages = useMessages(instance, filter);
  const retry = useRetryMessage(instance);
  // Which channels can send (until that is known, each counts as able to).
  const delivery = useMessageTemplates(instance).data?.delivery;
  if (messages.isPending) return <Spinner />;
  if (messages.isError) return <p className="text-destructive text-sm">The messages could not be loaded.</p>;
  const items = messages.data.items;
  if (items.length === 0) return <p className="text-muted-foreground text-sm">{emptyText}</p>;
  return (
    <ul className="grid gap-2" aria-label="Messages">
      {items.map((message) => (
        <MessageRow
          key={message.id}
          message={message}
          canRetry={canRetry}
          channelSetUp={delivery?.[message.channel] ?? true}
          recordLinks={recordLinks}
          retrying={retry.isPending && retry.variables === message.id}
          onRetry={() =>
            retry.mutate(message.id, {
              onError: (error) =>
                toast({ title: 'Could not retry', description: errorMessage(error, 'Try again.'), variant: 'destructive' }),
            })
          }
        />
      ))}
    </ul>
  );
}
