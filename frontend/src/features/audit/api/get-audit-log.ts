import { auditPageSchema } from '@crm/projections/contract';
import type { AuditPage } from '@crm/projections/audit';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { type AuditFilters, auditQueryParams } from '../utils/audit-filters';
import { auditApiPath, auditQueryKey } from './audit-api-path';

export async function getAuditLog(
  instance: string,
  filters: AuditFilters,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<AuditPage> {
  const params = auditQueryParams(filters);
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return auditPageSchema.parse(await apiFetch(`${auditApiPath(instance)}${query ? `?${query}` : ''}`, { signal }));
}

export function auditLogQueryOptions(instance: string, filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: [...auditQueryKey(instance), 'log', auditQueryParams(filters).toString()],
    queryFn: ({ pageParam, signal }) => getAuditLog(instance, filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor,
  });
}

/** Newest first, a page at a time ('Load more'). */
export function useAuditLog(instance: string, filters: AuditFilters) {
  return useInfiniteQuery({ ...auditLogQueryOptions(instance, filters), placeholderData: keepPreviousData });
}

/** The same entries as a CSV download (at most the server's cap), for a plain link. */
export function auditCsvUrl(instance: string, filters: AuditFilters): string {
  const query = auditQueryParams(filters).toString();
  return `${auditApiPath(instance, 'csv')}${query ? `?${query}` : ''}`;
}
