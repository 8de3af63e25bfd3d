import { jobPageSchema } from '@crm/projections/contract';
import type { CanceledFilter, JobPage, JobSort, JobView, Stage } from '@crm/projections/pipeline';
import { type InfiniteData, infiniteQueryOptions, keepPreviousData, type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { pipelineApiPath, pipelineQueryKey } from './pipeline-api-path';

export interface JobListParams {
  /** Server-side search over every field (phones by their digits too). */
  q: string;
  sort: JobSort;
  /** null: all stages. */
  stage: Stage | null;
  /** The toggle: `only` shows canceled jobs alone, `hide` the rest. */
  canceled: Extract<CanceledFilter, 'hide' | 'only'>;
  /** Only this customer's jobs (a customer's "Open the pipeline"). */
  customerId?: string | null;
}

export const jobListsQueryKey = (instance: string) => [...pipelineQueryKey(instance), 'list'] as const;

export async function getJobs(instance: string, params: JobListParams & { cursor: string | null }, signal?: AbortSignal): Promise<JobPage> {
  const search = new URLSearchParams({ sort: params.sort });
  if (params.q.trim()) search.set('q', params.q.trim());
  // A chosen stage wins over the canceled toggle on the server.
  if (params.stage) search.set('stage', params.stage);
  else if (params.canceled === 'only') search.set('canceled', 'only');
  if (params.customerId) search.set('customerId', params.customerId);
  if (params.cursor) search.set('cursor', params.cursor);
  return jobPageSchema.parse(await apiFetch(`${pipelineApiPath(instance)}?${search}`, { signal }));
}

export function jobsQueryOptions(instance: string, params: JobListParams) {
  return infiniteQueryOptions({
    queryKey: [...jobListsQueryKey(instance), { ...params, q: params.q.trim(), customerId: params.customerId ?? null }],
    queryFn: ({ pageParam, signal }) => getJobs(instance, { ...params, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

/** One page at a time ('Load more'); the previous results stay on screen while new filters load. */
export function useJobs(instance: string, params: JobListParams, enabled = true) {
  return useInfiniteQuery({ ...jobsQueryOptions(instance, params), placeholderData: keepPreviousData, enabled });
}

/**
 * Puts a job the server just answered with into every loaded list page (read-your-writes),
 * keeping the list's masked phone. The lists are re-read afterwards for order and filters.
 */
export function replaceJobInLists(queryClient: QueryClient, instance: string, job: JobView): void {
  queryClient.setQueriesData<InfiniteData<JobPage>>({ queryKey: jobListsQueryKey(instance) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.id === job.id ? { ...job, phone: item.phone } : item)),
          })),
        }
      : data,
  );
}

export function removeJobFromLists(queryClient: QueryClient, instance: string, jobId: string): void {
  queryClient.setQueriesData<InfiniteData<JobPage>>({ queryKey: jobListsQueryKey(instance) }, (data) => {
    if (!data?.pages.some((page) => page.items.some((item) => item.id === jobId))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        items: page.items.filter((item) => item.id !== jobId),
        total: Math.max(0, page.total - 1),
      })),
    };
  });
}
