import type { JobChangesInput, JobView } from '@crm/projections/pipeline';
import { type FormEvent, useState } from 'react';
import { problemFieldErrors } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { useCreateJob } from '../api/create-job';
import type { LoadedJob } from '../api/get-job';
import { conflictingJob, useUpdateJob } from '../api/update-job';
import { type EntryForm, entryPayload, entryProblem } from '../utils/entry-form';
import { saveErrorText } from '../utils/save-error';

export type EntryFieldErrors = Partial<Record<keyof EntryForm, string>>;

/**
 * Saving the entry form: a new job (created here, or by the caller's `onCreate`), or a saved
 * job's changes against the version in `base` (its ETag). A new job naming no chosen customer
 * is saved only once `mustAnswerMatches` says there are no matching customers to answer first.
 * The server's refusals that name a field are shown at that field, anything else in the banner;
 * a save refused because someone else saved first keeps their version (`conflict`) to load.
 */
export function useEntrySave({
  instance,
  form,
  base,
  onCreate,
  mustAnswerMatches,
  onSaved,
}: {
  instance: string;
  form: EntryForm;
  base: LoadedJob | null;
  onCreate?: (entry: JobChangesInput) => Promise<void>;
  mustAnswerMatches: () => Promise<boolean>;
  onSaved: () => void;
}) {
  const [error, setError] = useState<string | null>(null);
  /** The server's refusals that name a field, shown at that field (the banner has the rest). */
  const [fieldErrors, setFieldErrors] = useState<EntryFieldErrors>({});
  const [conflict, setConflict] = useState<JobView | null>(null);
  const [creatingElsewhere, setCreatingElsewhere] = useState(false);
  const createJob = useCreateJob(instance);
  const updateJob = useUpdateJob(instance);
  const saving = createJob.isPending || updateJob.isPending || creatingElsewhere;

  /** A failed save: what names one of the boxes shows there, anything else in the banner. */
  const showSaveError = (failure: unknown, mode: 'create' | 'update') => {
    const named = problemFieldErrors(failure);
    const atFields = Object.fromEntries(Object.entries(named).filter(([field]) => field in form)) as EntryFieldErrors;
    setFieldErrors(atFields);
    setError(Object.keys(atFields).length > 0 ? null : saveErrorText(failure, mode));
  };

  const save = (payload: JobChangesInput) => {
    if (!base && onCreate) {
      setCreatingElsewhere(true);
      onCreate(payload)
        .then(onSaved)
        .catch((failure: unknown) => {
          reportFailure('Create entry failed', failure);
          showSaveError(failure, 'create');
        })
        .finally(() => setCreatingElsewhere(false));
      return;
    }
    if (!base) {
      createJob.mutate(payload, {
        onSuccess: onSaved,
        onError: (failure) => {
          reportFailure('Create entry failed', failure);
          showSaveError(failure, 'create');
        },
      });
      return;
    }
    updateJob.mutate(
      { jobId: base.job.id, entry: payload, etag: base.etag },
      {
        onSuccess: onSaved,
        onError: (failure) => {
          reportFailure('Update entry failed', failure);
          setConflict(conflictingJob(failure));
          showSaveError(failure, 'update');
        },
      },
    );
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const payload = entryPayload(form, base?.job);
    const problem = entryProblem(payload);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setFieldErrors({});
    setConflict(null);
    if (!base && !payload.customerId && payload.name) {
      void mustAnswerMatches().then((mustAnswer) => {
        if (!mustAnswer) save(payload);
      });
      return;
    }
    save(payload);
  };

  return { saving, error, setError, fieldErrors, setFieldErrors, conflict, setConflict, handleSubmit };
}
