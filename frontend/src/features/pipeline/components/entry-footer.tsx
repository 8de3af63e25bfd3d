import { Button } from '@/components/ui/button';
import { DialogFooter } from '@/components/ui/dialog';
import { HistoryIcon, TrashIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import type { PipelinePermissions } from '../types/pipeline-permissions';

/**
 * The entry dialog's bar: a saved job's own actions (History, Messages, Cancel Job or Reopen,
 * Delete Entry) on one side, the dialog's Cancel and Save on the other.
 */
export function EntryFooter({
  saved,
  permissions,
  canceled,
  saving,
  stagePending,
  onShowHistory,
  onShowMessages,
  onReopen,
  onCancelJob,
  onDelete,
  onCancel,
}: {
  saved: boolean;
  permissions: PipelinePermissions;
  canceled: boolean;
  saving: boolean;
  /** Cancel Job or Reopen is on its way. */
  stagePending: boolean;
  onShowHistory: () => void;
  onShowMessages?: (() => void) | undefined;
  onReopen: () => void;
  onCancelJob: () => void;
  onDelete: () => void;
  onCancel: () => void;
}) {
  return (
    <DialogFooter sticky className="sm:justify-between">
      {/*
        On a phone the record's actions share one row of small buttons (icons and "Entry" left
        out of sight, the names kept for screen readers), so the sticky bar takes two rows of
        the screen, not three.
      */}
      <div className="flex gap-1.5 max-sm:[&>button]:h-8 max-sm:[&>button]:min-w-0 max-sm:[&>button]:flex-1 max-sm:[&>button]:px-1.5 max-sm:[&>button]:text-xs max-sm:[&_svg]:hidden sm:flex-wrap sm:gap-2">
        {saved ? (
          <>
            <Button variant="outline" onClick={onShowHistory}>
              <HistoryIcon />
              History
            </Button>
            {onShowMessages ? (
              <Button variant="outline" onClick={onShowMessages}>
                Messages
              </Button>
            ) : null}
            {/* Acting on a saved job at once: away from the dialog's own Cancel. */}
            {permissions.canWrite ? (
              canceled ? (
                <Button variant="outline" onClick={onReopen} aria-disabled={stagePending || undefined}>
                  Reopen Job
                </Button>
              ) : (
                <Button
                  variant="outline"
                  className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                  onClick={onCancelJob}
                  aria-disabled={stagePending || undefined}
                >
                  Cancel Job
                </Button>
              )
            ) : null}
            {permissions.canDelete ? (
              <Button variant="outline" className="text-destructive hover:bg-destructive/10 hover:text-destructive" onClick={onDelete}>
                <TrashIcon />
                Delete<span className="max-sm:sr-only"> Entry</span>
              </Button>
            ) : null}
          </>
        ) : null}
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex">
        <Button variant="outline" onClick={onCancel} className={permissions.canWrite ? undefined : 'col-span-2'}>
          {permissions.canWrite ? 'Cancel' : 'Close'}
        </Button>
        {permissions.canWrite ? (
          <Button type="submit" aria-disabled={saving || undefined}>
            {saving ? 'Saving...' : saved ? 'Save Changes' : 'Add Entry'}
          </Button>
        ) : null}
      </div>
    </DialogFooter>
  );
}

/** A chosen customer's vehicles, when there are several: one press takes one into the Vehicle box. */
export function VehicleChoiceChips({
  vehicles,
  chosen,
  onChoose,
}: {
  vehicles: readonly string[];
  chosen: string;
  onChoose: (vehicle: string) => void;
}) {
  return (
    <span className="flex flex-wrap items-center gap-1.5" role="group" aria-label="The customer's vehicles">
      <span>Customer&apos;s vehicles:</span>
      {vehicles.map((vehicle) => (
        <button
          key={vehicle}
          type="button"
          aria-pressed={chosen === vehicle}
          onClick={() => onChoose(vehicle)}
          className={cn(
            'rounded-full border px-2 py-0.5 text-xs font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
            chosen === vehicle ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent',
          )}
        >
          {vehicle}
        </button>
      ))}
    </span>
  );
}
