import { formatChangeValue, formatDateTime } from '@crm/projections/contract';
import { SERVICE_REQUEST_FIELD_LABELS, type ServiceRequestHistoryEntry } from '@crm/projections/service-requests';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useServiceRequestHistory } from '../api/get-service-request';

const ACTIONS: Record<ServiceRequestHistoryEntry['action'], { label: string; variant: BadgeVariant }> = {
  submitted: { label: 'Submitted', variant: 'success' },
  updated: { label: 'Updated', variant: 'default' },
  converted: { label: 'Converted to job', variant: 'success' },
  archived: { label: 'Archived', variant: 'outline' },
  unshowable: { label: 'A change that could not be shown', variant: 'outline' },
};

const FIELD_LABELS: Record<string, string> = { ...SERVICE_REQUEST_FIELD_LABELS, status: 'Status', job: 'Job' };

/** Every change to the request, newest first: who, when, and each field's old and new value. */
export function ServiceRequestHistory({ instance, id }: { instance: string; id: string }) {
  const history = useServiceRequestHistory(instance, id, true);
  if (history.isPending) return <Spinner label="Loading history..." />;
  if (history.isError) return <Alert>{errorMessage(history.error, 'Failed to load the history')}</Alert>;
  return (
    <ol aria-label="History" className="grid gap-3">
      {history.data.map((entry) => (
        <li key={entry.id} className="grid gap-2 rounded-lg border p-3 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={ACTIONS[entry.action].variant}>{ACTIONS[entry.action].label}</Badge>
            <span className="font-medium">{entry.userDisplayName}</span>
            <span className="text-muted-foreground">{formatDateTime(entry.timestamp)}</span>
          </div>
          {entry.changes.length > 0 ? (
            <ul className="grid gap-1">
              {entry.changes.map((change) => (
                <li key={change.field} className="grid gap-0.5 sm:grid-cols-[10rem_1fr]">
                  <span className="text-muted-foreground">{FIELD_LABELS[change.field] ?? change.field}</span>
                  <span>
                    {change.oldValue === null ? (
                      formatChangeValue(change.field, change.newValue)
                    ) : (
                      <>
                        <span className="text-muted-foreground line-through">{formatChangeValue(change.field, change.oldValue)}</span> →{' '}
                        {formatChangeValue(change.field, change.newValue)}
                      </>
                    )}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
