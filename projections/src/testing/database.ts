import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** How long drop() waits for the database's sessions to close by themselves before it terminates them. */
const SESSIONS_GONE_WITHIN_MS = 5_000;

/** A fresh, empty database in the run's PostgreSQL cluster. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('pgAdminUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        // pg's Pool#end() resolves once it has asked its connections to close, before the
        // server has let them go. Terminating such a session sends its client a FATAL error,
        // which the ended pool emits as 'error': with no listener left, that is an uncaught
        // exception in whatever test runs next. So wait for the sessions that are leaving,
        // and force out only those still open after that (a test that leaked a connection).
        // Only clients' sessions are waited for: DROP DATABASE stops autovacuum's workers itself.
        const deadline = Date.now() + SESSIONS_GONE_WITHIN_MS;
        const open = async () =>
          (
            await client.query<{ application_name: string; state: string | null; query: string }>(
              `select application_name, state, left(query, 80) as query
                 from pg_stat_activity
                where datname = $1 and pid <> pg_backend_pid() and backend_type = 'client backend'`,
              [name],
            )
          ).rows;
        let left = await open();
        while (left.length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          left = await open();
        }
        // Their owner gets an error for each (an uncaught exception where nothing listens):
        // name them, so the test that left them open can be found.
        if (left.length > 0) {
          const sessions = left.map((s) => `${s.application_name || '(no application_name)'} ${s.state ?? ''}: ${s.query}`);
          console.warn(
            `drop(): ${left.length} session(s) still open after ${SESSIONS_GONE_WITHIN_MS} ms, now terminated:\n  ${sessions.join('\n  ')}`,
          );
        }
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
