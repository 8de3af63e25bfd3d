import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { signOut } from '@/lib/session-calls';
import { sessionInstance, userSessionState } from '../states/user-session-state';
import { forgetSessionData } from '../utils/forget-session-data';
import { reportFailure } from '@/lib/report-failure';

export const logout = () => signOut('/api/auth/logout');

/**
 * Signs out. The session is cleared whatever the call's outcome, then
 * `onSignedOut` runs (the caller sends the visitor to the instance's login page). It is a
 * hook-level callback on purpose: the control that started the sign-out may be gone by then.
 */
export function useLogout({ onSignedOut }: { onSignedOut?: () => void } = {}) {
  const queryClient = useQueryClient();
  const [session, setSession] = useAtom(userSessionState);
  const instance = sessionInstance(session);
  return useMutation({
    mutationFn: logout,
    onError: (error) => reportFailure('Logout failed', error),
    onSettled: () => {
      setSession({ status: 'signed-out', instance });
      forgetSessionData(queryClient);
      onSignedOut?.();
    },
  });
}
