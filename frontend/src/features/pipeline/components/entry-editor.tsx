import type { CustomerSuggestion } from '@crm/projections/contract';
import { CANCELED_STAGE, parseQuote, type JobChangesInput, type Stage } from '@crm/projections/pipeline';
import { revisionETag } from '@crm/projections/shared';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { CustomerMatchOfferPanel, useCustomerMatchOffer } from '@/components/customer-match-offer';
import { fillWholePhone } from '@/components/job-form';
import { NewerVersionNotice } from '@/components/newer-version-notice';
import { SaveErrorMessage } from '@/components/save-error-message';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useCancelJob } from '../api/cancel-job';
import type { LoadedJob } from '../api/get-job';
import { useReopenJob } from '../api/reopen-job';
import type { PipelinePermissions } from '../types/pipeline-permissions';
import { type EntryForm, emptyEntryForm, entryFormFromJob, sameEntryFields } from '../utils/entry-form';
import { DeleteEntryDialog } from './delete-entry-dialog';
import { EntryFields, type LinkedCustomer } from './entry-fields';
import { EntryFooter } from './entry-footer';
import { JobFieldList } from './job-snapshot-view';
import { RepairOrderSection } from './repair-order/repair-order-section';
import { StageBar } from './stage-bar';
import { useEntrySave } from './use-entry-save';

/** Names compared as the customer matches compare them: no case, no extra spaces. */
const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The entry form (add or edit). `initial` is the job read on its own (whole phone, ETag);
 * null for a new entry. It is read again when someone else changes the job (live updates):
 * a newer version is offered, never poured over what is being typed. Cancel Job and Reopen
 * act at once on a saved job (they are commands of their own); on a new one they set the
 * stage to be saved.
 */
export function EntryEditor({
  instance,
  initial,
  currentUserName,
  permissions,
  hidden,
  onDirtyChange,
  onClose,
  onCancel,
  onShowHistory,
  onShowMessages,
  draft,
  onCreate,
  offerMatches = true,
}: {
  instance: string;
  initial: LoadedJob | null;
  currentUserName: string;
  permissions: PipelinePermissions;
  hidden: boolean;
  onDirtyChange: (dirty: boolean) => void;
  onClose: () => void;
  /** Cancel: closes like the X, asking first when there are unsaved changes. */
  onCancel: () => void;
  onShowHistory: () => void;
  /** The job's messages to its customer (the dialog's Messages view). */
  onShowMessages?: () => void;
  /** A new entry's fields filled in beforehand (e.g. from a service request). */
  draft?: Partial<EntryForm>;
  /** Saves a new entry instead of creating the job here (e.g. a conversion that creates it); rejects with the error to show. */
  onCreate?: (entry: JobChangesInput) => Promise<void>;
  /** Offer existing customers with the typed name or phone before a new one is made (off when the caller already did). */
  offerMatches?: boolean;
}) {
  const [base, setBase] = useState<LoadedJob | null>(initial);
  const [form, setForm] = useState<EntryForm>(() =>
    initial ? entryFormFromJob(initial.job) : { ...emptyEntryForm(currentUserName), ...draft },
  );
  // A draft may name its customer already (a request converted for an existing customer).
  const [linked, setLinked] = useState<LinkedCustomer | null>(() => {
    const customerId = initial ? initial.job.customerId : (draft?.customerId ?? null);
    return customerId ? { id: customerId, label: 'Linked to a customer record' } : null;
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  /** Typed into since the version in `base` was loaded. */
  const [edited, setEdited] = useState(false);
  /** The chosen customer's vehicles, when there are several to pick from. */
  const [vehicleChoices, setVehicleChoices] = useState<string[]>([]);

  const cancelJob = useCancelJob(instance);
  const reopenJob = useReopenJob(instance);
  // A new job naming no chosen customer makes one: offer the ones with this name or phone first.
  const matchOffer = useCustomerMatchOffer(
    instance,
    { name: form.name, phone: form.phone, email: '' },
    offerMatches && permissions.canWrite && !base && !form.customerId,
  );
  /** Saved or deleted: nothing is left unsaved, and the dialog closes. */
  const closeDone = () => {
    onDirtyChange(false);
    onClose();
  };
  const { saving, error, setError, fieldErrors, setFieldErrors, conflict, setConflict, handleSubmit } = useEntrySave({
    instance,
    form,
    base,
    onCreate,
    mustAnswerMatches: matchOffer.mustAnswer,
    onSaved: closeDone,
  });
  // The box keeps what was typed; a quote the server would refuse says why right under it.
  const quoteCheck = form.quote.trim() ? parseQuote(form.quote) : null;
  const quoteProblem = quoteCheck && 'message' in quoteCheck ? quoteCheck.message : undefined;
  const canceled = form.stage === CANCELED_STAGE;

  const change = (patch: Partial<EntryForm>) => {
    // A new job's customer chosen here goes with the name it was chosen by: a name changed to
    // someone else's drops the link, so the matches for the new name are offered again.
    if (!base && linked?.chosenName !== undefined && patch.name !== undefined && !sameName(patch.name, linked.chosenName)) {
      setLinked(null);
      setVehicleChoices([]);
      patch = { ...patch, customerId: null };
    }
    setForm((current) => ({ ...current, ...patch }));
    setFieldErrors((current) => (Object.keys(patch).some((field) => field in current) ? {} : current));
    setEdited(true);
    onDirtyChange(true);
  };
  const handleChooseCustomer = (customer: CustomerSuggestion) => {
    setLinked({
      id: customer.id,
      label: `Linked to customer #${customer.number} ${customer.name}`.trim(),
      name: `#${customer.number} ${customer.name}`.trim(),
      chosenName: customer.name || form.name,
    });
    // One vehicle is taken as it is; with several, the user picks (unless one is typed already).
    setVehicleChoices(customer.vehicles.length > 1 ? customer.vehicles : []);
    setForm((current) => ({
      ...current,
      name: customer.name || current.name,
      customerId: customer.id,
      makeModel:
        customer.vehicles.length === 1 && !customer.vehicles.includes(current.makeModel) ? customer.vehicles[0]! : current.makeModel,
    }));
    setEdited(true);
    onDirtyChange(true);
    fillWholePhone(instance, customer.id, setForm);
  };

  const handleUnlink = () => {
    setLinked(null);
    setVehicleChoices([]);
    change({ customerId: null });
  };

  /** After Cancel Job / Reopen on a saved job: take the new stage, and the new ETag only if nobody else saved meanwhile. */
  const adoptStageChange = (saved: LoadedJob) => {
    setForm((current) => ({ ...current, stage: saved.job.stage }));
    setBase((current) => (current && saved.job.revision === current.job.revision + 1 ? saved : current));
  };

  const handleCancelJob = () => {
    setError(null);
    if (!base) return;
    cancelJob.mutate(base.job.id, {
      onSuccess: adoptStageChange,
      onError: (failure) => setError(errorMessage(failure, 'Failed to cancel job')),
    });
  };

  const handleReopen = () => {
    setError(null);
    if (!base) return;
    reopenJob.mutate(base.job.id, {
      onSuccess: adoptStageChange,
      onError: (failure) => setError(errorMessage(failure, 'Failed to reopen job')),
    });
  };

  /**
   * After a repair-order command (a line, the estimate, the invoice, a payment): the next ETag
   * when nobody else saved meanwhile, and the quote the lines' total gives the job.
   */
  const adoptRepairOrderChange = (saved: LoadedJob, sentWith: string) => {
    // An invoice or a payment moves the stage: a later Save must not move it back.
    setForm((current) => ({ ...current, stage: saved.job.stage, quote: saved.detail?.lines.length ? saved.job.quote : current.quote }));
    setBase((current) => (current && current.etag === sentWith ? saved : current));
  };
  /** The newest copy read (live updates included): what the repair order shows and acts on. */
  const latest = base && initial && initial.job.revision > base.job.revision ? initial : base;
  const itemized = Boolean(latest?.detail?.lines.length);

  /**
   * Someone else's newer version of the job, read again after a live update. One that changes
   * nothing the form shows (a repair-order line, the customer's approval) becomes the base at
   * once, keeping what is typed: the next save names its revision, and no notice asks the
   * user to load a version that looks the same.
   */
  const newest = base && initial && initial.job.revision > base.job.revision ? initial : null;
  const newer = newest && base && !sameEntryFields(newest.job, base.job) ? newest : null;
  if (newest && !newer) setBase(newest);

  const loadVersion = (loaded: LoadedJob) => {
    setBase(loaded);
    setForm(entryFormFromJob(loaded.job));
    setLinked(loaded.job.customerId ? { id: loaded.job.customerId, label: 'Linked to a customer record' } : null);
    setConflict(null);
    setError(null);
    setEdited(false);
    onDirtyChange(false);
  };

  const handleLoadCurrent = () => {
    if (conflict) loadVersion({ job: conflict, etag: revisionETag(conflict.revision) });
  };

  return (
    <form onSubmit={handleSubmit} noValidate className={cn('grid gap-5', hidden && 'hidden')}>
      {/* Someone who may not change the job reads it; the server refuses a save anyway. */}
      {newer && permissions.canWrite ? (
        <NewerVersionNotice
          record="entry"
          dirty={edited}
          onLoad={() => loadVersion(newer)}
          // The dialog scrolls: the notice stays in view at its top, wherever the user is typing.
          className="sticky top-0 z-20 shadow-[0_-1.5rem_0_0_var(--color-card),0_1px_3px_0_rgb(0_0_0/0.1)]"
        />
      ) : null}
      {/* A reader has nothing to lose: they see the newest version as it comes. */}
      {!permissions.canWrite && base ? (
        <JobFieldList job={(newer ?? base).job} label="Entry" />
      ) : (
        <fieldset className="grid min-w-0 gap-5">
          <div className="grid gap-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-sm font-medium">Stage</span>
              {canceled ? <span className="inline-flex items-center gap-1 text-sm font-semibold text-destructive">Canceled ✕</span> : null}
            </div>
            <StageBar value={form.stage} disabled={canceled} onChange={(stage: Stage) => change({ stage })} />
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <EntryFields
              instance={instance}
              form={form}
              change={change}
              fieldErrors={fieldErrors}
              quoteProblem={quoteProblem}
              itemized={itemized}
              linked={linked}
              onUnlink={handleUnlink}
              onChooseCustomer={handleChooseCustomer}
              vehicleChoices={vehicleChoices}
              matches={<CustomerMatchOfferPanel offer={matchOffer} onUse={handleChooseCustomer} className="sm:col-span-2" />}
            />
          </div>
        </fieldset>
      )}

      {latest?.detail ? (
        <RepairOrderSection
          instance={instance}
          loaded={latest}
          detail={latest.detail}
          canWrite={permissions.canWrite}
          onSaved={adoptRepairOrderChange}
        />
      ) : null}

      <Alert>{error ? <SaveErrorMessage message={error} onLoadCurrent={conflict ? handleLoadCurrent : undefined} /> : null}</Alert>

      <EntryFooter
        saved={base !== null}
        permissions={permissions}
        canceled={canceled}
        saving={saving}
        stagePending={reopenJob.isPending || cancelJob.isPending}
        onShowHistory={onShowHistory}
        onShowMessages={onShowMessages}
        onReopen={handleReopen}
        onCancelJob={handleCancelJob}
        onDelete={() => setConfirmDelete(true)}
        onCancel={onCancel}
      />

      {base ? (
        <DeleteEntryDialog instance={instance} job={base.job} open={confirmDelete} onOpenChange={setConfirmDelete} onDeleted={closeDone} />
      ) : null}
    </form>
  );
}
