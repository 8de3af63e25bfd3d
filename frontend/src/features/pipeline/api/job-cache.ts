import type { QueryClient } from '@tanstack/react-query';
import { jobQueryKey, type LoadedJob } from './get-job';
import { jobListsQueryKey, removeJobFromLists, replaceJobInLists } from './get-jobs';

/**
 * After a command: the server's answer is the projected job (read-your-writes), so it goes
 * straight into the caches; lists and history are then re-read for order, filters and rows.
 */
export async function rememberSavedJob(queryClient: QueryClient, instance: string, saved: LoadedJob): Promise<void> {
  queryClient.setQueryData(jobQueryKey(instance, saved.job.id), saved);
  replaceJobInLists(queryClient, instance, saved.job);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: jobListsQueryKey(instance) }),
    queryClient.invalidateQueries({ queryKey: [...jobQueryKey(instance, saved.job.id), 'history'] }),
  ]);
}

export async function forgetDeletedJob(queryClient: QueryClient, instance: string, jobId: string): Promise<void> {
  removeJobFromLists(queryClient, instance, jobId);
  queryClient.removeQueries({ queryKey: jobQueryKey(instance, jobId) });
  await queryClient.invalidateQueries({ queryKey: jobListsQueryKey(instance) });
}
