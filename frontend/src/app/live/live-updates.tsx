import type { LiveChange, LiveKind } from '@crm/projections/contract';
import { isCancelledError, type Query, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import { useEffect } from 'react';
import { currentUserQueryOptions } from '@/features/identity/api/get-current-user';
import { userSessionState } from '@/features/identity/states/user-session-state';
import { connectLive, onLiveMessage } from '@/lib/live';
import { reportFailure } from '@/lib/report-failure';

/**
 * Which queries each kind of change makes stale, by the first part of their keys. Only the
 * queries of open screens are read again at once (the others when next shown).
 */
const QUERY_ROOTS: Record<LiveKind, readonly string[]> = {
  jobs: ['pipeline', 'customers', 'dashboard', 'activity', 'deleted-records'],
  calendar: ['calendar', 'dashboard'],
  customers: ['customers', 'customer-name', 'pipeline', 'dashboard', 'activity', 'deleted-records'],
  users: ['admin-users', 'users', 'activity'],
  audit: ['audit', 'activity'],
  serviceRequests: ['service-requests', 'dashboard', 'activity'],
  instance: ['dashboard'],
};

/** How long changes are gathered before the queries are read again (well within the second a screen has to follow). */
const COALESCE_MS = 80;

/** A past version (time travel) never changes: it is not read again. */
function isPastVersion(query: Query): boolean {
  return query.queryKey.some(
    (part) => part === 'as-of' || (typeof part === 'object' && part !== null && 'asOf' in part && Boolean(part.asOf)),
  );
}

async function readAgain(queryClient: QueryClient, change: LiveChange): Promise<void> {
  const roots = new Set(change.kinds.flatMap((kind) => QUERY_ROOTS[kind]));
  await queryClient.invalidateQueries({
    predicate: (query) => roots.has(String(query.queryKey[0])) && !isPastVersion(query),
  });
}

/**
 * The tab's live-update stream, open while an instance user is signed in: every change
 * another user (or this user in another tab) makes reads the affected queries again, so the
 * open screens update without a reload. A change to the user's own account or instance reads
 * the session again (permissions, features, a lock that ends it).
 */
export function LiveUpdates() {
  const queryClient = useQueryClient();
  const [session, setSession] = useAtom(userSessionState);
  const instance = session.status === 'signed-in' ? session.user.instance.subdomain : null;
  const userId = session.status === 'signed-in' ? session.user.id : null;

  useEffect(() => {
    if (!instance || !userId) return;
    const refreshSession = async () => {
      try {
        const user = await queryClient.fetchQuery({ ...currentUserQueryOptions(), staleTime: 0 });
        setSession(user ? { status: 'signed-in', user } : { status: 'signed-out', instance });
      } catch (error) {
        // Signing out in this tab drops every query while this check may be on its way: the
        // check is called off (CancelledError), and the sign-out already set the session.
        if (isCancelledError(error)) return;
        reportFailure('Session check failed', error);
      }
    };
    // Changes that arrive close together are read once: a burst costs one read per screen.
    let pending: LiveChange | null = null;
    let flush: ReturnType<typeof setTimeout> | null = null;
    const stopListening = onLiveMessage((message) => {
      if (message.type === 'closed') {
        // Signed out or locked elsewhere: the session check sends this tab to the login page.
        if (message.reason === 'signed-out') void refreshSession();
        return;
      }
      if (message.type === 'reset') {
        void queryClient.invalidateQueries({ predicate: (query) => !isPastVersion(query) });
        return;
      }
      const { change } = message;
      pending = pending
        ? {
            kinds: [...new Set([...pending.kinds, ...change.kinds])],
            records: [...pending.records, ...change.records],
            truncated: pending.truncated || change.truncated,
          }
        : change;
      flush ??= setTimeout(() => {
        flush = null;
        if (pending) void readAgain(queryClient, pending);
        pending = null;
      }, COALESCE_MS);
      if (change.kinds.includes('instance') || change.records.some((record) => record.kind === 'users' && record.id === userId))
        void refreshSession();
    });
    const disconnect = connectLive(instance);
    return () => {
      if (flush) clearTimeout(flush);
      disconnect();
      stopListening();
    };
  }, [instance, userId, queryClient, setSession]);

  return null;
}
