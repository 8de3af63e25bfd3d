import type { SessionEndedReason } from '@crm/projections/contract';
import type { Knex } from 'knex';
import type { Context, Next } from 'koa';
import { PRINCIPAL_COLUMNS, principalOfRow, type SessionData, type UserPrincipal, type UserRow } from './auth.ts';

// The session's shape is defined next to the principal it loads (auth.ts imports nothing from here: no import circle).
export type { SessionData };

interface SessionRow {
  data: Record<string, unknown>;
  expires_at: Date;
  session_user_id: string | null;
  session_instance_id: string | null;
}

/** Where the session store leaves the principal it loaded with the session (in ctx.state). */
const LOADED_PRINCIPAL = 'loadedSessionPrincipal';

/** A staff session's user as loaded with the session (null: no such user any more). */
export interface LoadedSessionPrincipal {
  userId: string;
  instanceId: string;
  principal: UserPrincipal | null;
}

/** The principal the session store loaded for this request's session, when it did so for this user. */
export function sessionPrincipalOf(state: Record<string, unknown>, userId: string, instanceId: string): LoadedSessionPrincipal | null {
  const loaded = state[LOADED_PRINCIPAL] as LoadedSessionPrincipal | undefined;
  return loaded && loaded.userId === userId && loaded.instanceId === instanceId ? loaded : null;
}

/** How long an unused session lives. */
export const IDLE_TIMEOUT_MS = { superadmin: 60 * 60 * 1000, user: 8 * 60 * 60 * 1000 } as const;

/**
 * How stale a session's expiry may get before a request pushes it forward. An hour-long idle
 * window does not need better than minute precision, and a rolling session would otherwise
 * write its row and sign and send its cookie again on every request.
 */
export const TOUCH_INTERVAL_MS = 60 * 1000;

/** What of koa-session's session the touch reads and sets. */
interface TouchableSession {
  kind?: unknown;
  maxAge?: unknown;
  _expire?: unknown;
  _requireSave?: boolean;
}

/**
 * The idle timeout: a request in a signed-in session saves it again, with a new expiry in its
 * row and its cookie alike, once its expiry was set more than TOUCH_INTERVAL_MS ago. The
 * cookie and the row then expire together, a full idle window after the last touch (at most
 * a minute before the last request); requests in between send no cookie and write nothing.
 * Runs inside koa-session (after the route), before it commits.
 */
export async function touchIdleSession(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    // An answer that failed is a request too (koa-session commits it as well).
    const session = ctx.session as unknown as TouchableSession | null;
    if (session?.kind && typeof session._expire === 'number' && typeof session.maxAge === 'number') {
      const setAt = session._expire - session.maxAge;
      if (Date.now() - setAt >= TOUCH_INTERVAL_MS) session._requireSave = true;
    }
  }
}

/** Sessions just ended in this process: one (sign-out), or a user's (all, or all but one). */
export interface EndedSessions {
  sessionId?: string;
  userId?: string;
  keepSessionId?: string;
}

const sessionsEndedListeners = new Set<(ended: EndedSessions) => void>();

/**
 * Hears sessions ended in this process, as they end (the live streams of a signed-out session
 * close at once instead of at their next periodic check, which could let them hear one more
 * change). Returns the unsubscribe.
 */
export function onSessionsEnded(listener: (ended: EndedSessions) => void): () => void {
  sessionsEndedListeners.add(listener);
  return () => sessionsEndedListeners.delete(listener);
}

function announceSessionsEnded(ended: EndedSessions): void {
  forgetCachedSessions();
  for (const listener of sessionsEndedListeners) listener(ended);
}

/**
 * How long a cached session with its user is used without asking the database again. The
 * `crm_auth` notifications (sent at the commit of any change to sessions, users, their
 * permissions and instances) drop the cache at once in every process; this is the backstop
 * should one be missed.
 */
export const SESSION_CACHE_TTL_MS = 5_000;
const SESSION_CACHE_LIMIT = 20_000;

interface CachedSession {
  data: Record<string, unknown>;
  loaded: LoadedSessionPrincipal | null;
  expiresAt: number;
  cachedAt: number;
}

/** The process's cached sessions (shared by every app in it: one set of notifications). */
const cachedSessions = new Map<string, CachedSession>();
/** Moves on each drop: a lookup that began before one does not put its (maybe stale) row back. */
let cacheGeneration = 0;

/** Drops every cached session: something about sessions or users changed. */
export function forgetCachedSessions(): void {
  cacheGeneration++;
  cachedSessions.clear();
}

/** Whether the cache may be used now: only while the changes that drop it can be heard. */
export interface SessionCacheGate {
  readonly listening: boolean;
}

/** koa-session store in PostgreSQL, so any API process can serve any session. */
export function createSessionStore(knex: Knex, gate: SessionCacheGate | null = null) {
  const remember = (state: Record<string, unknown> | undefined, cached: CachedSession) => {
    if (state && cached.loaded) state[LOADED_PRINCIPAL] = cached.loaded;
    return cached.data;
  };
  return {
    /**
     * The session and, for a staff session, its user as the read models know it now, in one
     * query: the guard then needs no second round trip (see `sessionPrincipalOf`).
     */
    async get(
      key: string,
      _maxAge?: unknown,
      options?: { ctx?: { state?: Record<string, unknown> } },
    ): Promise<Record<string, unknown> | undefined> {
      const state = options?.ctx?.state;
      const now = Date.now();
      const useCache = gate?.listening === true;
      const cached = useCache ? cachedSessions.get(key) : undefined;
      if (cached && now - cached.cachedAt < SESSION_CACHE_TTL_MS && now < cached.expiresAt) return remember(state, cached);
      const generation = cacheGeneration;
      const result = await knex.raw<{ rows: Array<SessionRow & Partial<UserRow>> }>(
        `SELECT s.data, s.expires_at, s.user_id AS session_user_id, s.instance_id AS session_instance_id, ${PRINCIPAL_COLUMNS}
           FROM sessions s
           LEFT JOIN rm.users u ON s.kind = 'user' AND u.id = s.user_id AND u.instance_id = s.instance_id
           LEFT JOIN rm.user_permissions p ON p.user_id = u.id
           LEFT JOIN rm.crm_instances i ON i.id = u.instance_id
          WHERE s.id = ? AND s.expires_at > now()
          LIMIT 1`,
        [key],
      );
      const row = result.rows[0];
      if (!row) {
        cachedSessions.delete(key);
        return undefined;
      }
      let loaded: LoadedSessionPrincipal | null = null;
      if (row.session_user_id && row.session_instance_id) {
        const complete = row.id != null && row.can_read != null && row.instance_id != null;
        loaded = {
          userId: row.session_user_id,
          instanceId: row.session_instance_id,
          principal: complete ? principalOfRow(row as UserRow) : null,
        };
      }
      const fresh: CachedSession = { data: row.data, loaded, expiresAt: new Date(row.expires_at).getTime(), cachedAt: now };
      if (useCache && generation === cacheGeneration) {
        if (cachedSessions.size >= SESSION_CACHE_LIMIT) cachedSessions.clear();
        cachedSessions.set(key, fresh);
      }
      return remember(state, fresh);
    },
    async set(key: string, sess: Record<string, unknown>, maxAge: number) {
      // koa-session saves only what changed, and a touch (touchIdleSession) at most once a minute.
      const now = Date.now();
      // Written here: the next request reads it back (with its new expiry).
      cachedSessions.delete(key);
      const data = sess as Partial<SessionData> & Record<string, unknown>;
      const expiresAt = new Date(now + (Number.isFinite(maxAge) ? maxAge : IDLE_TIMEOUT_MS.user));
      await knex('sessions')
        .insert({
          id: key,
          data: JSON.stringify(sess),
          kind: data.kind ?? null,
          user_id: data.kind === 'user' ? data.userId : null,
          instance_id: data.kind === 'user' ? data.instanceId : null,
          expires_at: expiresAt,
        })
        .onConflict('id')
        .merge();
    },
    async destroy(key: string) {
      cachedSessions.delete(key);
      await knex('sessions').where({ id: key }).delete();
      announceSessionsEnded({ sessionId: key });
    },
  };
}

/**
 * Sessions the server ends while their people may be working are not deleted but left as a
 * note of why (`{ ended: reason }`, no kind, so they sign nobody in): the browser's next
 * request learns the reason, its session is then destroyed, and the sign-in page says why.
 * Notes nobody reads expire with the session.
 */
async function endSessions(query: Knex.QueryBuilder, reason: SessionEndedReason): Promise<number> {
  return await query.update({ data: JSON.stringify({ ended: reason }), kind: null });
}

/** Ends every session of a user at once (lock, delete, a PIN an admin reset). */
export async function destroyUserSessions(knex: Knex, userId: string, reason: SessionEndedReason): Promise<number> {
  const ended = await endSessions(knex('sessions').where({ user_id: userId }).whereNotNull('kind'), reason);
  announceSessionsEnded({ userId });
  return ended;
}

/** Ends every session of a user but one (the one that changed the PIN goes on). */
export async function destroyOtherUserSessions(knex: Knex, userId: string, keepSessionId: string | undefined): Promise<number> {
  const query = knex('sessions').where({ user_id: userId }).whereNotNull('kind');
  if (keepSessionId) query.whereNot({ id: keepSessionId });
  const ended = await endSessions(query, 'pin-changed');
  announceSessionsEnded({ userId, keepSessionId });
  return ended;
}

/** Ends every session of an instance at once (deactivation). */
export async function destroyInstanceSessions(knex: Knex, instanceId: string): Promise<number> {
  const ended = await endSessions(knex('sessions').where({ instance_id: instanceId }).whereNotNull('kind'), 'instance-closed');
  forgetCachedSessions();
  return ended;
}

export async function purgeExpiredSessions(knex: Knex): Promise<number> {
  return await knex('sessions').where('expires_at', '<=', knex.fn.now()).delete();
}
