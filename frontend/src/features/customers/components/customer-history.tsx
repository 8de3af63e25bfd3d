import type { ReactNode } from 'react';
import { canTimeTravelTo, describeChange } from '../utils/history-format';
import { formatDateTime, historyActionLabel } from '@crm/projections/contract';
import type { CustomerHistoryEntry } from '@crm/projections/customers';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { RevertFooter } from '@/components/revert-change';
import { cn } from '@/lib/cn';
import { useCustomerHistory } from '../api/get-customer-history';
import { useRevertCustomerChange } from '../api/revert-customer-change';
import { loadErrorMessage } from '../utils/load-error-message';

const ACTION_VARIANTS: Record<CustomerHistoryEntry['action'], BadgeVariant> = {
  created: 'success',
  updated: 'default',
  deleted: 'destructive',
  restored: 'success',
  merged: 'default',
  'merge-undone': 'default',
  unshowable: 'outline',
};

/** Whether a merge row's merge stands: no later row undid it. */
function mergeInEffect(entry: CustomerHistoryEntry, history: CustomerHistoryEntry[]): boolean {
  return !history.some((other) => other.action === 'merge-undone' && other.merge?.mergeId === entry.merge?.mergeId);
}

/** A merge row in words: who went into whom, and how many jobs and vehicles moved. */
function MergeSummary({ entry }: { entry: CustomerHistoryEntry }) {
  const merge = entry.merge;
  if (!merge) return null;
  const moved = `${merge.jobs} job${merge.jobs === 1 ? '' : 's'}, ${merge.vehicles} vehicle${merge.vehicles === 1 ? '' : 's'}`;
  const what = entry.action === 'merged' ? 'Merged' : 'Undid the merge of';
  return (
    <span className="text-sm" data-testid="merge-summary">
      {what} <strong className="font-medium">{merge.fromName || 'Unnamed'}</strong> into{' '}
      <strong className="font-medium">{merge.intoName || 'Unnamed'}</strong> ({moved})
    </span>
  );
}

function HistoryChanges({ entry }: { entry: CustomerHistoryEntry }) {
  if (entry.changes.length === 0) return null;
  return (
    // Spans, not a list: the row is a button, which may hold phrasing content only.
    <span className="grid gap-1 text-sm">
      {entry.changes.map((change) => {
        const { label, from, to } = describeChange(change, entry.action);
        return (
          <span key={change.field} className="grid gap-0.5 sm:grid-cols-[8rem_1fr] sm:gap-2">
            <span className="font-medium text-muted-foreground">{label}</span>
            <span className="min-w-0">
              {from !== null ? (
                <>
                  <del className="text-muted-foreground decoration-muted-foreground/60">{from}</del>
                  <span aria-hidden="true" className="px-1.5 text-muted-foreground">
                    →
                  </span>
                  <span className="sr-only"> changed to </span>
                </>
              ) : null}
              <ins className="no-underline">{to}</ins>
            </span>
          </span>
        );
      })}
    </span>
  );
}

/**
 * The customer's history, newest first: action, who, when, and each
 * changed field old → new. Choosing a row shows the customer as it was right after it.
 */
export function CustomerHistory({
  instance,
  customerId,
  selected,
  onSelect,
  mergeUndo,
}: {
  instance: string;
  customerId: string;
  /** The timestamp of the row being shown, if any. */
  selected: string | null;
  onSelect: (entry: CustomerHistoryEntry) => void;
  /** What a merge row still in effect offers (an admin's Undo). */
  mergeUndo?: (entry: CustomerHistoryEntry) => ReactNode;
}) {
  const history = useCustomerHistory(instance, customerId);
  const revert = useRevertCustomerChange(instance, customerId);

  if (history.isPending) return <Spinner label="Loading history..." />;
  if (history.isError) return <Alert>Could not load the history: {loadErrorMessage(history.error)}</Alert>;
  if (history.data.length === 0) return <p className="text-sm text-muted-foreground">No history found</p>;

  return (
    <ol className="grid gap-2" aria-label="Changes, newest first">
      {history.data.map((entry) => {
        const isSelected = selected === entry.timestamp;
        const clickable = canTimeTravelTo(entry);
        const header = (
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <Badge variant={ACTION_VARIANTS[entry.action]}>{historyActionLabel(entry.action)}</Badge>
            <span className="text-sm font-medium">{entry.userDisplayName || 'Unknown user'}</span>
            <time dateTime={entry.timestamp} className="text-xs text-muted-foreground">
              {formatDateTime(entry.timestamp, { seconds: true })}
            </time>
          </span>
        );
        return (
          <li key={entry.id} data-testid="history-row">
            {clickable ? (
              <button
                type="button"
                onClick={() => onSelect(entry)}
                aria-pressed={isSelected}
                className={cn(
                  'grid w-full gap-2 rounded-lg border p-3 text-left transition-colors hover:bg-accent/60',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  isSelected && 'border-primary bg-primary/5 hover:bg-primary/10',
                )}
              >
                {header}
                <HistoryChanges entry={entry} />
                <span className="sr-only">Show the customer as it was at this moment</span>
              </button>
            ) : (
              <div className="grid gap-2 rounded-lg border border-dashed p-3">
                {header}
                <MergeSummary entry={entry} />
                {mergeUndo && entry.action === 'merged' && mergeInEffect(entry, history.data) ? mergeUndo(entry) : null}
              </div>
            )}
            <RevertFooter entry={entry} history={history.data} revert={revert} />
          </li>
        );
      })}
    </ol>
  );
}
