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

/**
 * After a delete: the job leaves the lists, and its own cached reads are dropped. Only the
 * ones no screen shows: the dialog the delete was confirmed in still reads the job until it
 * closes, and a query removed under it would be read again at once, answer 404 and replace the
 * entry with "Job not found" while the dialog is closing.
 */
export async function forgetDeletedJob(queryClient: QueryClient, instance: string, jobId: string): Promise<void> {
  removeJobFromLists(queryClient, instance, jobId);
  queryClient.removeQueries({ queryKey: jobQueryKey(instance, jobId), type: 'inactive' });
  await queryClient.invalidateQueries({ queryKey: jobListsQueryKey(instance) });
}
