import { estimateSentSchema, type EstimateSent } from '@crm/projections/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders } from '@/lib/api-client';
import { etagOf } from './get-job';
import { rememberSavedJob } from './job-cache';
import type { JobCommandTarget } from './job-command';
import { pipelineApiPath } from './pipeline-api-path';

/** `POST …/pipeline/{id}/estimate/send`: the lines as they are now, behind a new link for the customer. */
export async function sendEstimate(instance: string, { jobId, etag }: JobCommandTarget): Promise<EstimateSent & { etag: string }> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId, 'estimate', 'send'), {
    method: 'POST',
    body: {},
    headers: { 'If-Match': etag },
  });
  const sent = estimateSentSchema.parse(data);
  return { ...sent, etag: etagOf(headers, sent.job) };
}

export function useSendEstimate(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: JobCommandTarget) => sendEstimate(instance, input),
    onSuccess: (sent) => rememberSavedJob(queryClient, instance, { job: sent.job, detail: sent.job, etag: sent.etag }),
  });
}
