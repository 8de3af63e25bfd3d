import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { forgetDeletedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

export async function deleteJob(instance: string, jobId: string): Promise<void> {
  await apiFetch<void>(pipelineApiPath(instance, jobId), { method: 'DELETE' });
}

export function useDeleteJob(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => deleteJob(instance, jobId),
    // Not waited for: the caller closes its dialogs at once, rather than after the lists are read again.
    onSuccess: (_result, jobId) => void forgetDeletedJob(queryClient, instance, jobId),
  });
}
