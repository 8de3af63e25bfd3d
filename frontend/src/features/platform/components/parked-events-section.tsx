import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useParkedEvents } from '@/features/platform/api/get-parked-events';

/** Which part of the system skipped the event, in words. */
const checkpointLabel = (checkpoint: string) => (checkpoint === 'main' ? 'Screens (read models)' : checkpoint);

/**
 * Parked events: changes the API accepted and recorded that a projector or reactor could
 * not handle, so the screens do not show them. Listed with the shop, the record, the error
 * and when, so the provider can fix the cause and replay them; never silent.
 */
export function ParkedEventsSection() {
  const { data, isPending, isError, refetch, isFetching } = useParkedEvents();
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
        <p className="text-sm text-muted-foreground">None: every recorded change is shown on the screens.</p>
      ) : null}
      {data && data.length > 0 ? (
        <>
          <p className="text-sm text-muted-foreground">
            {data.length === 1 ? 'One recorded change is' : `${data.length} recorded changes are`} not shown on the screens. Fix the cause,
            then replay them (<code>npm run projections:rebuild</code> reports them until then).
          </p>
          <ul className="grid gap-3" aria-label="Parked events">
            {data.map((event) => (
              <li key={`${event.checkpoint}-${event.eventId}`}>
                <Card className="grid gap-2 p-4 text-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <span className="font-medium break-all">{event.type}</span>
                    <time dateTime={event.parkedAt} className="text-muted-foreground">
                      {new Date(event.parkedAt).toLocaleString()}
                    </time>
                  </div>
                  <dl className="grid grid-cols-[max-content_minmax(0,1fr)] gap-x-3 gap-y-1">
                    <dt className="text-muted-foreground">Shop</dt>
                    <dd className="break-all">{event.subdomain ?? event.instanceId ?? 'Unknown'}</dd>
                    <dt className="text-muted-foreground">Record</dt>
                    <dd className="break-all">{event.streamId}</dd>
                    <dt className="text-muted-foreground">Skipped by</dt>
                    <dd className="break-all">{checkpointLabel(event.checkpoint)}</dd>
                    <dt className="text-muted-foreground">Event</dt>
                    <dd className="break-all">{event.eventId}</dd>
                  </dl>
                  <pre className="max-h-40 overflow-auto rounded-md bg-muted p-2 text-xs whitespace-pre-wrap break-all">{event.error}</pre>
                </Card>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
