import { ApiError } from '@/lib/api-error';

/**
 * What follows "Error loading customers: ": the server's message, else
 * "Failed to fetch customers: {status}", else the network error's own text.
 */
export function loadErrorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.problem?.message?.trim() || `Failed to fetch customers: ${error.status}`;
  if (error instanceof Error && error.message) return error.message;
  return 'Failed to fetch customers';
}
