import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';
import { jobQueryKey, loadedJobFrom, type LoadedJob } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

/**
 * Undo one change from the job's history: `POST …/history/{eventId}/revert`, with If-Match
 * naming the revision of the job the screen shows (when it has it), so a revert never lands
 * on a job that changed unseen. The answer is the job after the revert.
 */
export async function revertJobChange(instance: string, jobId: string, eventId: string, revision?: number): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId, 'history', eventId, 'revert'), {
    method: 'POST',
    headers: ifMatch(revision),
  });
  return loadedJobFrom(data, headers);
}

export function useRevertJobChange(instance: string, jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (eventId: string) => {
      const shown = queryClient.getQueryData<LoadedJob>(jobQueryKey(instance, jobId));
      return revertJobChange(instance, jobId, eventId, shown?.job.revision);
    },
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
