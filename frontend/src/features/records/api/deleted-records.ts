import { deletedListSchema, restoredSchema, type DeletedKind, type DeletedRecord, type RestoredView } from '@crm/projections/records';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** The admins' deleted jobs and customers: `/api/{instance}/deleted-records`. */
export function deletedRecordsApiPath(instance: string, ...segments: string[]): string {
  return ['/api', encodeURIComponent(instance), 'deleted-records', ...segments.map(encodeURIComponent)].join('/');
}

export const deletedRecordsQueryKey = (instance: string) => ['deleted-records', instance] as const;

export async function getDeletedRecords(instance: string, signal?: AbortSignal): Promise<DeletedRecord[]> {
  return deletedListSchema.parse(await apiFetch(deletedRecordsApiPath(instance), { signal })).items;
}

export function deletedRecordsQueryOptions(instance: string) {
  return queryOptions({
    queryKey: deletedRecordsQueryKey(instance),
    queryFn: ({ signal }) => getDeletedRecords(instance, signal),
  });
}

export function useDeletedRecords(instance: string) {
  return useQuery(deletedRecordsQueryOptions(instance));
}

export async function restoreRecord(instance: string, kind: DeletedKind, id: string): Promise<RestoredView> {
  return restoredSchema.parse(await apiFetch(deletedRecordsApiPath(instance, kind, id, 'restore'), { method: 'POST' }));
}

/**
 * A restore brings back records every other screen may hold (the pipeline, customers, their
 * counts): everything cached is read again, a rare admin action's small price.
 */
export function useRestoreRecord(instance: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: DeletedKind; id: string }) => restoreRecord(instance, kind, id),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
