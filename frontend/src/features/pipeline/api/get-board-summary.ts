import { boardSummarySchema, type BoardSummary } from '@crm/projections/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { pipelineApiPath, pipelineQueryKey } from './pipeline-api-path';

export const boardSummaryQueryKey = (instance: string) => [...pipelineQueryKey(instance), 'board-summary'] as const;

/** The board's column heads (counts and quote totals per stage) for a search. */
export async function getBoardSummary(instance: string, q: string, signal?: AbortSignal): Promise<BoardSummary> {
  const search = q.trim() ? `?${new URLSearchParams({ q: q.trim() })}` : '';
  return boardSummarySchema.parse(await apiFetch(`${pipelineApiPath(instance, 'board', 'summary')}${search}`, { signal }));
}

export function boardSummaryQueryOptions(instance: string, q: string) {
  return queryOptions({
    // Beside the lists, not under their key: the list caches are edited in place as InfiniteData.
    queryKey: [...boardSummaryQueryKey(instance), q.trim()],
    queryFn: ({ signal }) => getBoardSummary(instance, q, signal),
  });
}

export function useBoardSummary(instance: string, q: string) {
  return useQuery({ ...boardSummaryQueryOptions(instance, q), placeholderData: keepPreviousData });
}
