import { useQuery } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { currentSuperAdminQueryOptions } from '../api/get-current-super-admin';
import { type SuperAdminSession, superAdminSessionState } from '../states/super-admin-session-state';

/** The super admin session; checks it with the server once, the first time it is needed. */
export function useSuperAdminSession(): SuperAdminSession {
  const [session, setSession] = useAtom(superAdminSessionState);
  const unknown = session.status === 'unknown';
  const { data, isSuccess } = useQuery({ ...currentSuperAdminQueryOptions(), enabled: unknown });

  useEffect(() => {
    if (!unknown || !isSuccess) return;
    setSession(data ? { status: 'signed-in', superAdmin: data } : { status: 'signed-out' });
  }, [unknown, isSuccess, data, setSession]);

  return session;
}
