import { ApiError } from '@/lib/api-client';

/** What the list says when it cannot load. */
export function pipelineErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Not authenticated';
    return `Error: ${error.problem?.message ? error.message : 'Failed to fetch entries'}`;
  }
  return 'Error: An error occurred while fetching the data';
}

/** 'Showing X of Y entries', plus the search text. */
export function showingText(shown: number, total: number, search: string): string {
  const base = `Showing ${shown} of ${total} entries`;
  return search ? `${base} matching "${search}"` : base;
}

export function emptyText(search: string): string {
  return search ? `No entries found matching "${search}"` : 'No entries found';
}
