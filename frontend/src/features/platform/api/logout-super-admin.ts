import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { signOut } from '@/lib/session-calls';
import { superAdminSessionState } from '../states/super-admin-session-state';
import { reportFailure } from '@/lib/report-failure';

export const logoutSuperAdmin = () => signOut('/api/super-admin/logout');

/**
 * Signs out. The session is cleared whatever the call's outcome and
 * there is no redirect here: guarded screens send the visitor to the login page themselves.
 */
export function useLogoutSuperAdmin() {
  const queryClient = useQueryClient();
  const setSession = useSetAtom(superAdminSessionState);
  return useMutation({
    mutationFn: logoutSuperAdmin,
    onError: (error) => reportFailure('Super admin logout failed', error),
    onSettled: () => {
      setSession({ status: 'signed-out' });
      // Nothing read as the super admin may outlive the session.
      queryClient.removeQueries({ queryKey: ['super-admin'] });
      queryClient.removeQueries({ queryKey: ['crm-instances'] });
    },
  });
}
