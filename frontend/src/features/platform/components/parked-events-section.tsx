import { formatDateTime, type ParkedEventView } from '@crm/projections/contract';
import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useParkedEvents, type ParkedEventsScope } from '@/features/platform/api/get-parked-events';

/** Which part of the system skipped the event, in words. */
const checkpointLabel = (checkpoint: string) => (checkpoint === 'main' ? 'Screens (read models)' : checkpoint);

/** The kind of record a stream holds, in words (its id prefix); the stream id itself when unknown. */
const RECORD_KINDS: Record<string, string> = {
  customer: 'Customer',
  job: 'Job',
  vehicle: 'Vehicle',
  servicerequest: 'Service request',
  message: 'Message',
  user: 'User',
  crminstance: 'Shop settings',
  customerconsent: 'Customer consent',
};

/** The kind of record a stream holds: its id's prefix ('customer', 'job', 'vehicle', …). */
export const streamKindOf = (streamId: string): string => streamId.slice(0, Math.max(0, streamId.indexOf('-')));

const recordKindOf = (streamId: string): string | null => RECORD_KINDS[streamKindOf(streamId)] ?? null;

/** One entry per event: an event several projectors or reactors skipped is one change, skipped by each. */
function byEvent(events: ParkedEventView[]): Array<ParkedEventView & { skippedBy: string[] }> {
  const entries = new Map<string, ParkedEventView & { skippedBy: string[] }>();
  for (const event of events) {
    const seen = entries.get(event.eventId);
    if (seen) seen.skippedBy.push(checkpointLabel(event.checkpoint));
    else entries.set(event.eventId, { ...event, skippedBy: [checkpointLabel(event.checkpoint)] });
  }
  return [...entries.values()];
}

/**
 * Parked events: changes the API accepted and recorded that a projector or reactor could
 * not handle, so the screens do not show them. The provider sees every shop's (with the
 * shop); a shop's admins see their own, each with a link to its record when it has a page.
 * Listed with the record, the error and when, so the cause can be fixed and the events
 * replayed; never silent.
 */
export function ParkedEventsSection({
  scope = 'provider',
  recordPath,
}: {
  scope?: ParkedEventsScope;
  /** The page of the record an event belongs to, when it has one. */
  recordPath?: (event: ParkedEventView) => string | null;
}) {
  const { data: parked, isPending, isError, refetch, isFetching } = useParkedEvents(scope);
  const data = parked ? byEvent(parked) : undefined;
  const shop = scope === 'shop';
  return (
    <section aria-labelledby="parked-events-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="parked-events-heading" className="text-lg font-semibold">
          Parked events
        </h2>
        <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          Refresh
        </Button>
      </div>
      {isPending ? <Spinner label="Loading parked events..." /> : null}
      <Alert>{isError ? 'Could not load the parked events.' : null}</Alert>
      {data && data.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          {shop
            ? 'None: every change recorded in this shop is shown on the screens.'
            : 'None: every recorded change is shown on the screens.'}
        </p>
      ) : null}
      {data && data.length > 0 ? (
        <>
          <p className="text-sm text-muted-foreground">
            {data.length === 1 ? 'One recorded change is' : `${data.length} recorded changes are`} not shown on the screens.{' '}
            {shop ? (
              data.length === 1 ? (
                'It is kept; its record may show it missing until the provider fixes the cause and replays it.'
              ) : (
                'They are kept; their records may show them missing until the provider fixes the cause and replays them.'
              )
            ) : (
              <>
                Fix the cause, then replay them (<code>npm run projections:rebuild</code> reports them until then).
              </>
            )}
          </p>
          <ul className="grid gap-3" aria-label="Parked events">
            {data.map((event) => {
              const kind = recordKindOf(event.streamId);
              const to = recordPath?.(event) ?? null;
              return (
                <li key={event.eventId}>
                  <Card className="grid gap-2 p-4 text-sm">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <span className="font-medium">{event.type}</span>
                      <time dateTime={event.parkedAt} className="text-muted-foreground">
                        {formatDateTime(event.parkedAt, { seconds: true })}
                      </time>
                    </div>
                    <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1">
                      {shop ? null : (
                        <>
                          <dt className="text-muted-foreground">Shop</dt>
                          <dd>{event.subdomain ?? event.instanceId ?? 'Unknown'}</dd>
                        </>
                      )}
                      <dt className="text-muted-foreground">Record</dt>
                      <dd>
                        {to ? (
                          <Link to={to} className="font-medium underline underline-offset-4">
                            {kind ? `${kind} ${event.recordId}` : event.streamId}
                          </Link>
                        ) : shop && kind ? (
                          `${kind} ${event.recordId}`
                        ) : (
                          event.streamId
                        )}
                      </dd>
                      <dt className="text-muted-foreground">Skipped by</dt>
                      <dd>{event.skippedBy.join(', ')}</dd>
                      <dt className="text-muted-foreground">Event</dt>
                      <dd>{event.eventId}</dd>
                    </dl>
                    <pre className="max-h-40 overflow-auto rounded-md bg-muted p-2 text-xs whitespace-pre-wrap">{event.error}</pre>
                  </Card>
                </li>
              );
            })}
          </ul>
        </>
      ) : null}
    </section>
  );
}
