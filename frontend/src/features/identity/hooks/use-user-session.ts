import { useQuery } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { currentUserQueryOptions } from '../api/get-current-user';
import { sessionInstance, type UserSession, userSessionState } from '../states/user-session-state';

/** The instance user session; checks it with the server once, the first time it is needed. */
export function useUserSession(): UserSession {
  const [session, setSession] = useAtom(userSessionState);
  const unknown = session.status === 'unknown';
  const lastInstance = sessionInstance(session);
  const { data, isSuccess } = useQuery({ ...currentUserQueryOptions(), enabled: unknown });

  useEffect(() => {
    if (!unknown || !isSuccess) return;
    setSession(data ? { status: 'signed-in', user: data } : { status: 'signed-out', instance: lastInstance });
  }, [unknown, isSuccess, data, lastInstance, setSession]);

  return session;
}
