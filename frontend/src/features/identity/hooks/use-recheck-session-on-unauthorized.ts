import { useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { useCallback } from 'react';
import { useOnUnauthorized } from '@/lib/use-on-unauthorized';
import { currentUserQueryKey } from '../api/get-current-user';
import { sessionInstance, userSessionState } from '../states/user-session-state';

/**
 * When any call answers 401 (the session expired, the account was locked, or it was ended
 * elsewhere), checks the session again; the guard then sends the visitor to the login page
 * if it is gone.
 */
export function useRecheckSessionOnUnauthorized(): void {
  const queryClient = useQueryClient();
  const setSession = useSetAtom(userSessionState);

  useOnUnauthorized(
    useCallback(() => {
      // Drop the cached answer so the check really asks the server.
      queryClient.removeQueries({ queryKey: currentUserQueryKey });
      setSession((session) => (session.status === 'unknown' ? session : { status: 'unknown', instance: sessionInstance(session) }));
    }, [queryClient, setSession]),
  );
}
