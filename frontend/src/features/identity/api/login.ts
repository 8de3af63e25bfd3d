import { currentUserViewSchema } from '@crm/projections/contract';
import { type CurrentUserView, signInInput } from '@crm/projections/identity';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import type { z } from 'zod';
import { signIn } from '@/lib/session-calls';
import { userSessionState } from '../states/user-session-state';
import { forgetSessionData } from '../utils/forget-session-data';
import { currentUserQueryKey } from './get-current-user';
import { reportFailure } from '@/lib/report-failure';

/** `instance` is the subdomain slug from the address the visitor signs in at. */
export type LoginInput = z.input<typeof signInInput>;

export function login(input: LoginInput): Promise<CurrentUserView> {
  return signIn('/api/auth/login', { input: signInInput, view: currentUserViewSchema }, input);
}

/** Signs in to an instance and stores the returned user as the session. */
export function useLogin() {
  const queryClient = useQueryClient();
  const setSession = useSetAtom(userSessionState);
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => {
      forgetSessionData(queryClient);
      queryClient.setQueryData(currentUserQueryKey, user);
      setSession({ status: 'signed-in', user });
    },
    onError: (error, input) => {
      reportFailure('Login failed', error);
      setSession({ status: 'signed-out', instance: input.instance });
    },
  });
}
