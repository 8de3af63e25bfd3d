import type { CurrentUserView } from '@crm/projections/identity';
import { useAtomValue } from 'jotai';
import { userSessionState } from '../states/user-session-state';

/** The signed-in instance user. Only for screens behind RequireUser, which guarantees one. */
export function useSignedInUser(): CurrentUserView {
  const session = useAtomValue(userSessionState);
  if (session.status !== 'signed-in') throw new Error('useSignedInUser used outside RequireUser');
  return session.user;
}
