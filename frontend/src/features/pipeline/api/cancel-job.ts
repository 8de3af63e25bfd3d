import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { loadedJobFrom, type LoadedJob } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

/** Moves the job to Canceled (it remembers the stage it was in). */
export async function cancelJob(instance: string, jobId: string): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId, 'cancel'), { method: 'POST' });
  return loadedJobFrom(data, headers);
}

export function useCancelJob(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => cancelJob(instance, jobId),
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
