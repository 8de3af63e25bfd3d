import { type AuditEntry, formatDateTime, localizeTimesInText } from '@crm/projections/contract';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useRecentActivity } from '../api/get-recent-activity';
import { formatRelativeTime } from '../utils/relative-time';

/**
 * The instance's latest events in words; each names its record, and one the caller can open
 * (a job, a customer, a vehicle) links to it.
 */
export function RecentActivity({ className, linkOf }: { className?: string; linkOf?: (item: AuditEntry) => string | null }) {
  const { data: items, isPending, isError, refetch, isFetching } = useRecentActivity();
  const now = new Date();

  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle id="recent-activity-heading">Recent Activity</CardTitle>
        <CardDescription>The latest changes in this CRM.</CardDescription>
      </CardHeader>
      <CardContent>
        {isPending ? <Spinner size="sm" label="Loading activity..." /> : null}
        {isError ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-dashed p-4">
            <p className="text-sm text-muted-foreground">Recent activity is not available right now.</p>
            <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
              Try again
            </Button>
          </div>
        ) : null}
        {items && items.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            No activity yet. Changes to jobs, customers and users will show up here.
          </p>
        ) : null}
        {items && items.length > 0 ? (
          <ol aria-labelledby="recent-activity-heading" className="grid gap-0 divide-y">
            {items.map((item, index) => {
              const when = new Date(item.occurredAt);
              const valid = !Number.isNaN(when.getTime());
              return (
                <li key={item.id ?? `${item.occurredAt}-${index}`} className="grid gap-0.5 py-2.5 first:pt-0 last:pb-0">
                  <p className="text-sm">
                    {(() => {
                      const text = localizeTimesInText(item.summary);
                      const to = linkOf?.(item) ?? null;
                      return to ? (
                        <Link to={to} className="underline-offset-4 hover:text-primary hover:underline">
                          {text}
                        </Link>
                      ) : (
                        text
                      );
                    })()}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {item.actor.displayName ? <>{item.actor.displayName} · </> : null}
                    {valid ? (
                      <time dateTime={when.toISOString()} title={formatDateTime(when, { seconds: true })}>
                        {formatRelativeTime(when, now)}
                      </time>
                    ) : null}
                  </p>
                </li>
              );
            })}
          </ol>
        ) : null}
      </CardContent>
    </Card>
  );
}
