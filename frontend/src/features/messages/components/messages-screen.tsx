import { MESSAGE_STATUSES, type MessageStatus } from '@crm/projections/messages';
import { Link, useSearchParams } from 'react-router-dom';
import { MessageList, type MessageRecordLinks } from '@/components/messages/message-list';
import { useMessageTemplates } from '@/components/messages/messages-api';
import { Alert } from '@/components/ui/alert';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';

const FILTERS: Array<{ value: MessageStatus | ''; label: string }> = [
  { value: '', label: 'All' },
  { value: 'queued', label: 'Queued' },
  { value: 'sent', label: 'Sent' },
  { value: 'failed', label: 'Failed' },
  { value: 'not-sent', label: 'Not sent' },
];

/**
 * The shop's outbox: every message with its state, the reason it failed or was not sent,
 * and a retry. The status filter lives in the address (?status=).
 */
export function MessagesScreen({
  instance,
  templatesPath,
  canRetry,
  isAdmin,
  recordLinks,
}: {
  instance: string;
  templatesPath: string;
  canRetry: boolean;
  isAdmin: boolean;
  recordLinks: MessageRecordLinks;
}) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('status') ?? '';
  const status = (MESSAGE_STATUSES as readonly string[]).includes(raw) ? (raw as MessageStatus) : undefined;
  const templates = useMessageTemplates(instance);
  const notice = templates.data?.deliveryNotice;
  return (
    <div className="mx-auto grid w-full max-w-4xl gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold">Messages</h1>
        {isAdmin ? (
          <Link to={templatesPath} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            Templates and settings
          </Link>
        ) : null}
      </div>
      {notice ? (
        // The default on one machine, not an error: shown plainly, not in the error colour.
        <Alert variant="info">{notice}</Alert>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Outbox</CardTitle>
          <CardDescription>Confirmations, reminders and pickup notices to customers, newest first.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          {/* On a phone the five do not fit one line: three equal columns wrap them 3 + 2, never one left alone. */}
          <nav aria-label="Filter by status" className="grid grid-cols-3 gap-1 sm:flex sm:flex-wrap">
            {FILTERS.map((filter) => {
              const current = (status ?? '') === filter.value;
              return (
                <button
                  key={filter.label}
                  type="button"
                  aria-pressed={current}
                  className={cn(buttonVariants({ variant: current ? 'primary' : 'ghost', size: 'sm' }))}
                  onClick={() => {
                    const next = new URLSearchParams(params);
                    if (filter.value) next.set('status', filter.value);
                    else next.delete('status');
                    setParams(next, { replace: true });
                  }}
                >
                  {filter.label}
                </button>
              );
            })}
          </nav>
          <MessageList
            instance={instance}
            filter={{ status }}
            canRetry={canRetry}
            emptyText="No messages here yet."
            recordLinks={recordLinks}
          />
        </CardContent>
      </Card>
    </div>
  );
}
