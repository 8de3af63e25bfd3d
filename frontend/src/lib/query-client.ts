import { QueryClient } from '@tanstack/react-query';

/**
 * No refetch on window focus, no polling, no retries for reads or writes.
 * Reads refetch when a screen mounts again (staleTime 0) so staff see each other's changes;
 * mutations invalidate the queries they affect.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 0,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    },
    mutations: {
      retry: false,
    },
  },
});
