import { jobViewSchema } from '@crm/projections/contract';
import type { JobChangesInput } from '@crm/projections/pipeline';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { etagOf, type LoadedJob } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

/** A blank job number gets the next one; a name without a chosen customer creates and links one (server-side). */
export async function createJob(instance: string, entry: JobChangesInput): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance), { method: 'POST', body: entry });
  const job = jobViewSchema.parse(data);
  return { job, etag: etagOf(headers, job) };
}

export function useCreateJob(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entry: JobChangesInput) => createJob(instance, entry),
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
