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
    onSuccess: (_result, jobId) => forgetDeletedJob(queryClient, instance, jobId),
  });
}
