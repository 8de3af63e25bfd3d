import { formatDateTime, localizeTimesInText } from '@crm/projections/contract';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';

/** What the history rows of any record (a job, a customer) say about undoing them. */
export interface RevertableRow {
  id: string;
  timestamp: string;
  userDisplayName: string;
  /** The server's answer to "may the signed-in user revert this change?" */
  canRevert?: boolean;
  /** This row undid the row with this id. */
  revertOf?: string | null;
  /** Why the server would refuse a revert the user could otherwise make (a later change of the same fields...). */
  revertRefused?: string;
}

/** "Reverts the change of Nov 24, 2026, 9:30 PM by Ann": what a revert row undid (its row in the same history). */
export function RevertedNote({ entry, history }: { entry: RevertableRow; history: readonly RevertableRow[] }) {
  if (!entry.revertOf) return null;
  const undone = history.find((row) => row.id === entry.revertOf);
  return (
    <span className="text-xs text-muted-foreground" data-testid="reverted-note">
      {undone
        ? `Reverts the change of ${formatDateTime(undone.timestamp)}${undone.userDisplayName ? ` by ${undone.userDisplayName}` : ''}`
        : 'Reverts an earlier change'}
    </span>
  );
}

/**
 * What a history row says about undoing it, under the row: what it reverted, why it cannot be
 * reverted now, or its "Revert this change"; nothing when none applies.
 */
export function RevertFooter({ entry, history, revert }: { entry: RevertableRow; history: readonly RevertableRow[]; revert: Revert }) {
  if (!entry.canRevert && !entry.revertOf && !entry.revertRefused) return null;
  return (
    <div className="mt-1 flex flex-wrap items-center justify-between gap-2 px-1">
      <RevertedNote entry={entry} history={history} />
      {entry.revertRefused && !entry.canRevert ? (
        <span className="text-xs text-muted-foreground" data-testid="revert-refused">
          {localizeTimesInText(entry.revertRefused)}
        </span>
      ) : null}
      <RevertChangeButton entry={entry} revert={revert} />
    </div>
  );
}

type Revert = {
  isPending: boolean;
  mutate: (eventId: string, options: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
};

/**
 * "Revert this change" under a history row the server says the user can revert now (the
 * revert command's own rule); `revert` sends it. A change made since the history was read
 * can still make the server refuse it, and the toast says why.
 */
export function RevertChangeButton({ entry, revert }: { entry: RevertableRow; revert: Revert }) {
  if (!entry.canRevert) return null;
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={revert.isPending}
      aria-label={`Revert the change of ${formatDateTime(entry.timestamp)}`}
      onClick={() =>
        revert.mutate(entry.id, {
          onSuccess: () => toast({ title: 'Change reverted', description: 'The fields are back as they were before it.' }),
          onError: (error) =>
            toast({ title: 'Could not revert the change', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
        })
      }
    >
      {revert.isPending ? 'Reverting...' : 'Revert this change'}
    </Button>
  );
}
