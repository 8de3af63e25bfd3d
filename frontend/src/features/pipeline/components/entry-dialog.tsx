import { ParkedChangesNotice } from '@/components/parked-changes-notice';
import { formatDateTime, historyActionLabel, type JobHistoryEntry } from '@crm/projections/contract';
import type { JobChangesInput } from '@crm/projections/pipeline';
import { useState } from 'react';
import { MessageList } from '@/components/messages/message-list';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import type { PipelinePermissions } from '../types/pipeline-permissions';
import type { EntryForm } from '../utils/entry-form';
import { useJob } from '../api/get-job';
import { entryDialogTitle, jobLabel } from '../utils/entry-title';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { EntryEditor } from './entry-editor';
import { JobHistoryView } from './job-history-view';
import { JobSnapshotView } from './job-snapshot-view';

/**
 * A new entry (optionally filled in beforehand, and saved by `onCreate` instead of the
 * pipeline's own create: a service request's conversion), or an existing job.
 */
export type EntryDialogTarget =
  | {
      kind: 'new';
      draft?: Partial<EntryForm>;
      onCreate?: (entry: JobChangesInput) => Promise<void>;
      /** False when the caller has offered the existing customers already. */
      offerMatches?: boolean;
    }
  | { kind: 'edit'; jobId: string };

export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes. Are you sure you want to close without saving?';

type View = { kind: 'form' } | { kind: 'history' } | { kind: 'messages' } | { kind: 'version'; row: JobHistoryEntry };

/**
 * The entry dialog: the form, the job's history, and a past version of it. Closing by
 * Cancel, the backdrop, Escape or the X asks first when there are unsaved changes.
 */
export function EntryDialog({
  instance,
  target,
  currentUserName,
  permissions,
  onClose,
}: {
  instance: string;
  target: EntryDialogTarget;
  currentUserName: string;
  permissions: PipelinePermissions;
  onClose: () => void;
}) {
  const jobId = target.kind === 'edit' ? target.jobId : null;
  const loaded = useJob(instance, jobId);
  const [dirty, setDirty] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [view, setView] = useState<View>({ kind: 'form' });

  const handleOpenChange = (open: boolean) => {
    if (open) return;
    if (dirty) setConfirmDiscard(true);
    else onClose();
  };

  // A copy cached from an earlier visit may be stale: edit only what was read just now.
  const fresh = loaded.data && loaded.isFetchedAfterMount ? loaded.data : null;
  const job = fresh?.job ?? null;
  const title =
    view.kind === 'form'
      ? jobId && !job
        ? 'Edit Entry'
        : entryDialogTitle(job, !permissions.canWrite)
      : view.kind === 'history'
        ? `History for ${job ? jobLabel(job) : 'Entry'}`
        : view.kind === 'messages'
          ? `Messages for ${job ? jobLabel(job) : 'Entry'}`
          : `${job ? jobLabel(job) : 'Entry'} as of ${formatDateTime(view.row.timestamp)}`;
  const description =
    view.kind === 'form'
      ? job
        ? `Created ${formatDateTime(job.createdAt)}${job.createdBy ? ` by ${job.createdBy}` : ''}`
        : 'Fill in what you know; a blank Job Number is assigned automatically.'
      : view.kind === 'history'
        ? 'Newest first. Choose a change to see the whole entry as it was right after it.'
        : view.kind === 'messages'
          ? 'What the customer was sent about this job, or will be, newest first.'
          : `${historyActionLabel(view.row.action)}${view.row.userDisplayName ? ` by ${view.row.userDisplayName}` : ''}. Read-only.`;

  return (
    <Dialog open onOpenChange={handleOpenChange}>
      <DialogContent
        className="sm:max-h-[90dvh] sm:max-w-3xl"
        // Escape closes the open autocomplete list first, not the dialog.
        onEscapeKeyDown={(event) => {
          if (document.activeElement?.getAttribute('aria-expanded') === 'true') event.preventDefault();
        }}
      >
        <DialogHeader>
          {view.kind !== 'form' ? (
            <Button
              variant="ghost"
              size="sm"
              className="-ml-2 self-start"
              onClick={() => setView(view.kind === 'version' ? { kind: 'history' } : { kind: 'form' })}
            >
              <ArrowLeftIcon />
              Back
            </Button>
          ) : null}
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>

        {jobId ? <ParkedChangesNotice instance={instance} recordId={jobId} /> : null}
        {jobId && !fresh && !loaded.isError ? <Spinner label="Loading entry..." className="py-8" /> : null}
        {jobId && loaded.isError ? <Alert>{errorMessage(loaded.error, 'Failed to load entry')}</Alert> : null}
        {!jobId || fresh ? (
          <EntryEditor
            key={jobId ?? 'new'}
            instance={instance}
            initial={fresh}
            currentUserName={currentUserName}
            permissions={permissions}
            hidden={view.kind !== 'form'}
            onDirtyChange={setDirty}
            onClose={onClose}
            onCancel={() => handleOpenChange(false)}
            onShowHistory={() => setView({ kind: 'history' })}
            onShowMessages={() => setView({ kind: 'messages' })}
            draft={target.kind === 'new' ? target.draft : undefined}
            onCreate={target.kind === 'new' ? target.onCreate : undefined}
            offerMatches={target.kind === 'new' ? target.offerMatches : undefined}
          />
        ) : null}
        {jobId && view.kind === 'history' ? (
          <JobHistoryView instance={instance} jobId={jobId} onOpenVersion={(row) => setView({ kind: 'version', row })} />
        ) : null}
        {jobId && view.kind === 'messages' ? (
          <MessageList instance={instance} filter={{ jobId }} canRetry={permissions.canWrite} emptyText="No messages about this job yet." />
        ) : null}
        {jobId && view.kind === 'version' ? <JobSnapshotView instance={instance} jobId={jobId} revision={view.row.revision} /> : null}
      </DialogContent>

      <ConfirmDialog
        open={confirmDiscard}
        onOpenChange={setConfirmDiscard}
        title="Unsaved changes"
        description={UNSAVED_CHANGES_MESSAGE}
        cancelLabel="Keep Editing"
        confirmLabel="Close Without Saving"
        onConfirm={() => {
          setConfirmDiscard(false);
          onClose();
        }}
      />
    </Dialog>
  );
}
