import type { Knex } from 'knex';

export type SessionData = { kind: 'superadmin'; superAdminId: string } | { kind: 'user'; userId: string; instanceId: string };

/** How long an unused session lives (DECISIONS.md §3). */
export const IDLE_TIMEOUT_MS = { superadmin: 60 * 60 * 1000, user: 8 * 60 * 60 * 1000 } as const;

// A rolling session would otherwise write on every request; an hour-long idle window
// does not need better than minute precision.
const TOUCH_INTERVAL_MS = 60 * 1000;

/** koa-session store in PostgreSQL, so any API process can serve any session. */
export function createSessionStore(knex: Knex) {
  const lastWritten = new Map<string, { content: string; at: number }>();
  return {
    async get(key: string): Promise<Record<string, unknown> | undefined> {
      const row = (await knex('sessions').where({ id: key }).where('expires_at', '>', knex.fn.now()).first('data')) as
        { data: Record<string, unknown> } | undefined;
      return row?.data;
    },
    async set(key: string, sess: Record<string, unknown>, maxAge: number) {
      const now = Date.now();
      const { _expire: _e, ...content } = sess;
      const contentJson = JSON.stringify(content);
      const previous = lastWritten.get(key);
      if (previous && previous.content === contentJson && now - previous.at < TOUCH_INTERVAL_MS) return;
      lastWritten.set(key, { content: contentJson, at: now });
      if (lastWritten.size > 50_000) lastWritten.clear();
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
      lastWritten.delete(key);
      await knex('sessions').where({ id: key }).delete();
    },
  };
}

/** Ends every session of a user at once (lock, delete). */
export async function destroyUserSessions(knex: Knex, userId: string): Promise<number> {
  return await knex('sessions').where({ user_id: userId }).delete();
}

/** Ends every session of an instance at once (deactivation). */
export async function destroyInstanceSessions(knex: Knex, instanceId: string): Promise<number> {
  return await knex('sessions').where({ instance_id: instanceId }).delete();
}

export async function purgeExpiredSessions(knex: Knex): Promise<number> {
  return await knex('sessions').where('expires_at', '<=', knex.fn.now()).delete();
}
