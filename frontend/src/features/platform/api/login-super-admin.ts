import { superAdminViewSchema } from '@crm/projections/contract';
import { superAdminLoginInput, type SuperAdminView } from '@crm/projections/platform';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import type { z } from 'zod';
import { signIn } from '@/lib/session-calls';
import { superAdminSessionState } from '../states/super-admin-session-state';
import { currentSuperAdminQueryKey } from './get-current-super-admin';
import { reportFailure } from '@/lib/report-failure';

export type SuperAdminLoginInput = z.input<typeof superAdminLoginInput>;

export function loginSuperAdmin(input: SuperAdminLoginInput): Promise<SuperAdminView> {
  return signIn('/api/super-admin/login', { input: superAdminLoginInput, view: superAdminViewSchema }, input);
}

/** Signs in and stores the returned super admin as the session. */
export function useLoginSuperAdmin() {
  const queryClient = useQueryClient();
  const setSession = useSetAtom(superAdminSessionState);
  return useMutation({
    mutationFn: loginSuperAdmin,
    onSuccess: (superAdmin) => {
      queryClient.setQueryData(currentSuperAdminQueryKey, superAdmin);
      setSession({ status: 'signed-in', superAdmin });
    },
    onError: (error) => {
      reportFailure('Super admin login failed', error);
      setSession({ status: 'signed-out' });
    },
  });
}
