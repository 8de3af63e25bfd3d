import { useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useOnUnauthorized } from '@/lib/use-on-unauthorized';
import { currentSuperAdminQueryKey } from '../api/get-current-super-admin';
import { superAdminSessionState } from '../states/super-admin-session-state';

/**
 * When any call answers 401 (the session expired or was ended elsewhere), checks the session
 * again; the guard then sends the visitor to the login page if it is gone.
 */
export function useRecheckSessionOnUnauthorized(): void {
  const queryClient = useQueryClient();
  const setSession = useSetAtom(superAdminSessionState);

  useOnUnauthorized(
    useCallback(() => {
      // Drop the cached answer so the check really asks the server.
      queryClient.removeQueries({ queryKey: currentSuperAdminQueryKey });
      setSession({ status: 'unknown' });
    }, [queryClient, setSession]),
  );
}
