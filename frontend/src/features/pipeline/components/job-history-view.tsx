import { historyFieldLabel } from '../utils/history-format';
import { EMPTY_VALUE, formatChangeValue, formatDateTime, historyActionLabel, type JobHistoryEntry } from '@crm/projections/contract';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useCustomerNames } from '@/lib/api/customer-names';
import { RevertFooter } from '@/components/revert-change';
import { useJobHistory } from '../api/get-job-history';
import { useRevertJobChange } from '../api/revert-job-change';

const ADDING_ACTIONS: ReadonlySet<string> = new Set(['created', 'line-added']);

/**
 * Who changed what and when, newest first, each changed field with its old and new value.
 * A row opens the job as it was right after that change.
 */
export function JobHistoryView({
  instance,
  jobId,
  onOpenVersion,
}: {
  instance: string;
  jobId: string;
  onOpenVersion: (row: JobHistoryEntry) => void;
}) {
  const history = useJobHistory(instance, jobId);
  const revert = useRevertJobChange(instance, jobId);
  const linkedIds = (history.data ?? []).flatMap((row) =>
    row.changes
      .filter((c) => c.field === 'customerId')
      .flatMap((c) => [c.oldValue, c.newValue].filter((v): v is string => typeof v === 'string' && v !== '')),
  );
  const customerNames = useCustomerNames(instance, linkedIds);

  if (history.isPending) return <Spinner label="Loading history..." className="py-6" />;
  if (history.isError) return <Alert>{errorMessage(history.error, 'Failed to load history')}</Alert>;
  if (history.data.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">No history found</p>;

  return (
    <ol className="grid gap-2" aria-label="Changes, newest first">
      {history.data.map((row) => (
        <li key={row.id}>
          <button
            type="button"
            onClick={() => onOpenVersion(row)}
            className="grid w-full gap-2 rounded-lg border bg-background p-3 text-left text-sm transition-colors hover:bg-accent/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <span className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
              <span className="font-semibold">{historyActionLabel(row.action)}</span>
              <span className="text-xs text-muted-foreground">
                {row.userDisplayName ? `${row.userDisplayName} · ` : ''}
                <time dateTime={row.timestamp}>{formatDateTime(row.timestamp)}</time>
              </span>
            </span>
            {row.changes.length > 0 ? (
              <ul className="grid gap-1">
                {row.changes.map((change) => {
                  const before = formatChangeValue(change.field, change.oldValue, customerNames);
                  const after = formatChangeValue(change.field, change.newValue, customerNames);
                  // Nothing was there before a creation or a new line: only its value is shown.
                  const showBefore = !(ADDING_ACTIONS.has(row.action) && before === EMPTY_VALUE);
                  return (
                    // On a phone the field's name sits above its value: side by side, a line's long name left the value a few letters wide.
                    <li key={change.field} className="grid gap-x-2 text-xs sm:grid-cols-[minmax(6rem,auto)_1fr] sm:text-sm">
                      <span className="text-muted-foreground">{historyFieldLabel(change.field)}</span>
                      <span className="min-w-0">
                        {showBefore ? (
                          <>
                            <del className="text-muted-foreground decoration-muted-foreground/60">{before}</del>
                            <span aria-hidden="true" className="px-1.5 text-muted-foreground">
                              →
                            </span>
                            <span className="sr-only"> changed to </span>
                          </>
                        ) : null}
                        <ins className="font-medium no-underline">{after}</ins>
                      </span>
                    </li>
                  );
                })}
              </ul>
            ) : null}
            <span className="text-xs text-primary">View this version</span>
          </button>
          <RevertFooter entry={row} history={history.data} revert={revert} />
        </li>
      ))}
    </ol>
  );
}
