import { jobDetailSchema, jobViewSchema, type JobDetail } from '@crm/projections/contract';
import type { JobView } from '@crm/projections/pipeline';
import { revisionETag } from '@crm/projections/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, apiFetchWithHeaders } from '@/lib/api-client';
import { pipelineApiPath, pipelineQueryKey } from './pipeline-api-path';

/** A job read on its own: the whole phone, and the ETag to send back as If-Match when saving. */
export interface LoadedJob {
  job: JobView;
  etag: string;
  /** The job with its repair order (lines, totals, estimate, invoice, payments), when the answer carried it. */
  detail?: JobDetail;
}

/** The ETag the server gave, else one made from the revision (the server's own format). */
export function etagOf(headers: Headers, job: JobView): string {
  return headers.get('ETag') ?? revisionETag(job.revision);
}

/** A job command's or read's answer: the job, its repair order when there, and the ETag. */
export function loadedJobFrom(data: unknown, headers: Headers): LoadedJob {
  const detail = jobDetailSchema.safeParse(data);
  const job = detail.success ? detail.data : jobViewSchema.parse(data);
  return { job, etag: etagOf(headers, job), ...(detail.success ? { detail: detail.data } : {}) };
}

export const jobQueryKey = (instance: string, jobId: string) => [...pipelineQueryKey(instance), 'job', jobId] as const;

export async function getJob(instance: string, jobId: string, signal?: AbortSignal): Promise<LoadedJob> {
  const { data, headers } = await apiFetchWithHeaders(pipelineApiPath(instance, jobId), { signal });
  return loadedJobFrom(data, headers);
}

export function jobQueryOptions(instance: string, jobId: string) {
  return queryOptions({
    queryKey: jobQueryKey(instance, jobId),
    queryFn: ({ signal }) => getJob(instance, jobId, signal),
  });
}

export function useJob(instance: string, jobId: string | null) {
  return useQuery({ ...jobQueryOptions(instance, jobId ?? ''), enabled: jobId !== null });
}

/**
 * Time travel: the job right after the change with this revision (a history row's), folded
 * from its events; read-only. By revision, not time: one save can record two changes in the
 * same instant (an edit and its stage), and each row must show its own.
 */
export async function getJobAsOf(instance: string, jobId: string, revision: number, signal?: AbortSignal): Promise<JobView> {
  const query = new URLSearchParams({ asOfRevision: String(revision) });
  return jobViewSchema.parse(await apiFetch(`${pipelineApiPath(instance, jobId)}?${query}`, { signal }));
}

export function jobAsOfQueryOptions(instance: string, jobId: string, revision: number) {
  return queryOptions({
    queryKey: [...jobQueryKey(instance, jobId), 'as-of', revision],
    queryFn: ({ signal }) => getJobAsOf(instance, jobId, revision, signal),
    // The past does not change.
    staleTime: Infinity,
  });
}

export function useJobAsOf(instance: string, jobId: string, revision: number) {
  return useQuery(jobAsOfQueryOptions(instance, jobId, revision));
}
