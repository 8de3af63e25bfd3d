import type { Stage } from '@crm/projections/pipeline';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { loadedJobFrom, type LoadedJob } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

/** The inline stage changer: only the stage, no If-Match (any stage may follow any other). */
export async function changeJobStage(instance: string, jobId: string, stage: Stage): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId, 'stage'), { method: 'PATCH', body: { stage } });
  return loadedJobFrom(data, headers);
}

export function useChangeJobStage(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ jobId, stage }: { jobId: string; stage: Stage }) => changeJobStage(instance, jobId, stage),
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
