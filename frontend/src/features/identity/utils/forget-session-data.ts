import type { QueryClient } from '@tanstack/react-query';

/**
 * Drops everything read under a session (another user's or another instance's data must not
 * show after a sign-in or sign-out). Only the public server configuration is kept.
 */
export function forgetSessionData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'app-info' });
}
