import { formatDateTime } from '@crm/projections/contract';
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
 * "Revert this change" under a history row the user may revert (an admin any, a writer their
 * own of the last 24 hours); `revert` sends it. A later change of the same fields makes the
 * server refuse it, and the toast says which.
 */
export function RevertChangeButton({
  entry,
  revert,
}: {
  entry: RevertableRow;
  revert: { isPending: boolean; mutate: (eventId: string, options: { onSuccess: () => void; onError: (error: unknown) => void }) => void };
}) {
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
