import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetchWithHeaders, type HttpMethod } from '@/lib/api-client';
import { type LoadedJob, loadedJobFrom } from './get-job';
import { rememberSavedJob } from './job-cache';
import { pipelineApiPath } from './pipeline-api-path';

/** What every repair-order command on a job needs: the job, and the ETag of the copy acted on. */
export interface JobCommandTarget {
  jobId: string;
  /** Sent as If-Match: a command over someone else's newer change is a 409. */
  etag: string;
}

/**
 * Sends one of the repair order's commands on a job (`…/pipeline/{id}/{segments}`) and reads
 * the job it answers (read-your-writes: the projected job with its lines and totals).
 */
export async function sendJobCommand(
  instance: string,
  { jobId, etag }: JobCommandTarget,
  segments: string[],
  options: { method?: HttpMethod; body?: unknown } = {},
): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId, ...segments), {
    method: options.method ?? 'POST',
    body: options.body,
    headers: { 'If-Match': etag },
  });
  return loadedJobFrom(data, headers);
}

/** A mutation for one command whose answer goes straight into the job's caches. */
export function useJobCommand<Input extends JobCommandTarget>(
  instance: string,
  send: (instance: string, input: Input) => Promise<LoadedJob>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => send(instance, input),
    onSuccess: (saved) => rememberSavedJob(queryClient, instance, saved),
  });
}
