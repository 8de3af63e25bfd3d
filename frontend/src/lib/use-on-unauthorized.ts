import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError } from './api-client';
import { noteSessionEnded } from './session-ended';

/**
 * Calls `onUnauthorized` whenever a query or a mutation answers 401. Keep it stable
 * (useCallback): a new function subscribes again.
 */
export function useOnUnauthorized(onUnauthorized: () => void): void {
  const queryClient = useQueryClient();

  useEffect(() => {
    const check = (error: unknown) => {
      if (!(error instanceof ApiError) || error.status !== 401) return;
      // The call that found the session ended by the server says why; the sign-in page will.
      noteSessionEnded(error.problem?.reason);
      onUnauthorized();
    };
    const unsubscribeQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') check(event.action.error);
    });
    const unsubscribeMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') check(event.action.error);
    });
    return () => {
      unsubscribeQueries();
      unsubscribeMutations();
    };
  }, [queryClient, onUnauthorized]);
}
