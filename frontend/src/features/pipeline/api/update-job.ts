import { jobViewSchema } from '@crm/projections/contract';
import type { JobChangesInput, JobView } from '@crm/projections/pipeline';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { conflictCurrent } from '@/lib/concurrency';
import { loadedJobFrom, type LoadedJob } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

export interface UpdateJobInput {
  jobId: string;
  /** The whole entry. */
  entry: JobChangesInput;
  /** The ETag of the copy being edited: a save over someone else's change is a 409. */
  etag: string;
}

export async function updateJob(instance: string, { jobId, entry, etag }: UpdateJobInput): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId), {
    method: 'PUT',
    body: entry,
    headers: { 'If-Match': etag },
  });
  return loadedJobFrom(data, headers);
}

/** A 409 on save carries the job as it is now; null for any other error. */
export function conflictingJob(error: unknown): JobView | null {
  return conflictCurrent(error, jobViewSchema);
}

export function useUpdateJob(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateJobInput) => updateJob(instance, input),
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
