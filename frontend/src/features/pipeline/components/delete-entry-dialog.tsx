import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useDeleteJob } from '../api/delete-job';
import { jobLabel } from '../utils/entry-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';

export const DELETE_ENTRY_FAILED = 'Failed to delete entry';

/**
 * The text of the Confirm Delete dialog (deleted jobs are kept for the admins, who can restore
 * them, so it says so rather than "cannot be undone"): "this entry for {name}", or the entry by
 * its number when it has no name ("for Entry #1" reads wrong).
 */
export function deleteEntryQuestion(job: { id: string; name: string; jobNumber: string }): string {
  const which = job.name.trim() ? `this entry for ${job.name.trim()}` : jobLabel(job);
  return `Are you sure you want to delete ${which}? It leaves the pipeline; an admin can restore it from Admin → Deleted records.`;
}

/** Confirm Delete, then DELETE the job; `onDeleted` runs once it is gone. */
export function DeleteEntryDialog({
  instance,
  job,
  open,
  onOpenChange,
  onDeleted,
}: {
  instance: string;
  job: { id: string; name: string; jobNumber: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted?: () => void;
}) {
  const deleteJob = useDeleteJob(instance);

  // Awaited rather than mutate's callbacks: those are dropped when this dialog unmounts before
  // the answer (its parent re-rendering as the caches change), and then nothing would close.
  const handleConfirm = async () => {
    try {
      await deleteJob.mutateAsync(job.id);
    } catch (error) {
      toast({ title: DELETE_ENTRY_FAILED, description: errorMessage(error, DELETE_ENTRY_FAILED), variant: 'destructive' });
      return;
    }
    onOpenChange(false);
    onDeleted?.();
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Confirm Delete"
      description={deleteEntryQuestion(job)}
      confirmLabel={deleteJob.isPending ? 'Deleting...' : 'Delete'}
      pending={deleteJob.isPending}
      onConfirm={() => void handleConfirm()}
    />
  );
}
