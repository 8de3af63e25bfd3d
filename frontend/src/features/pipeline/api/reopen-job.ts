import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { loadedJobFrom, type LoadedJob } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

/** Brings a canceled job back to Quote. */
export async function reopenJob(instance: string, jobId: string): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId, 'reopen'), { method: 'POST' });
  return loadedJobFrom(data, headers);
}

export function useReopenJob(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => reopenJob(instance, jobId),
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
