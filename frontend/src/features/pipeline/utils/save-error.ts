import { ApiError } from '@/lib/api-client';

/**
 * The red banner's text for a failed save: the server's message when it sent
 * one, else 'Failed to create entry' / 'Failed to update entry'; a thrown (network) error
 * reads 'An error occurred while saving'.
 */
export function saveErrorText(error: unknown, mode: 'create' | 'update'): string {
  if (error instanceof ApiError) {
    if (error.problem?.message) return error.message;
    return mode === 'create' ? 'Failed to create entry' : 'Failed to update entry';
  }
  return 'An error occurred while saving';
}
