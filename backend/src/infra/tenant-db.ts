import { createRequire } from 'node:module';
import { isUuid } from '@crm/projections/shared';
import knexFactory, { type Knex } from 'knex';
import { preparedStatementName } from './prepared-statements.ts';

/**
 * Runs read-model queries for one instance as role crm_api (which row-level security
 * binds) with `app.instance_id` set to that instance: a query that forgets its instance
 * filter still returns only this instance's rows.
 *
 * One round trip per query: the queries run on a pool of their own whose connections took
 * role crm_api when they were opened and keep the instance they were last set to. Only when
 * a connection was last used for another instance (or never) does a read send one more
 * statement, `set_config` for the session. The queries run without BEGIN/COMMIT: each is
 * its own snapshot (a list page and its total may be one commit apart, as with any two
 * reads), and role crm_api may only SELECT, so nothing is written through this pool.
 * Why not one multi-statement message per read: it needs every parameter inlined as a
 * literal, knex's inlining is documented for debugging only, and a read of two queries
 * (a page and its count) would still be two messages.
 */
export async function withTenant<T>(knex: Knex, instanceId: string, fn: (db: Knex) => Promise<T>): Promise<T> {
  if (knex.isTransaction) return await inTransactionAsTenant(knex as Knex.Transaction, instanceId, fn);
  return await onTenantConnection(knex, instanceId, (pool, connection) => fn(boundTo(pool, connection)));
}

/**
 * withTenant inside a caller's transaction: the queries stay on the transaction's connection
 * (a command that took a lock there reads under it), as role crm_api for this call only.
 * The tenant pool is the application knex's, never a transaction's: a pool opened for a
 * transaction would never be closed, and each would keep a connection open.
 */
async function inTransactionAsTenant<T>(trx: Knex.Transaction, instanceId: string, fn: (db: Knex) => Promise<T>): Promise<T> {
  if (!isUuid(instanceId)) throw new Error('withTenant: the instance id is not a UUID');
  // Both last until the transaction ends (is_local); the role is given back below.
  await trx.raw("SELECT set_config('app.instance_id', ?, true), set_config('role', 'crm_api', true)", [instanceId.toLowerCase()]);
  let answered = false;
  try {
    const result = await fn(trx);
    answered = true;
    return result;
  } finally {
    // After a failed statement the transaction is aborted and rolls back anyway: the reset
    // would only fail and hide the error.
    if (answered) await trx.raw('RESET ROLE');
  }
}

/**
 * One fixed statement for one instance, as withTenant runs it (role crm_api, the instance
 * set, one round trip), its rows as pg returns them. For the hot reads: their text is written
 * once, where knex would build and compile it again on every request (a tenth of a short
 * read's CPU by profile). `prepared`: the text is one of a hot read's few fixed texts, run as
 * a prepared statement (see preparedStatementName).
 */
export async function tenantRows<Row>(
  knex: Knex,
  instanceId: string,
  text: string,
  values: readonly unknown[],
  options: { prepared?: boolean } = {},
): Promise<Row[]> {
  const name = options.prepared ? preparedStatementName(text) : undefined;
  return await onTenantConnection(knex, instanceId, async (_pool, connection) => {
    const query = name ? { name, text, values: values as unknown[] } : { text, values: values as unknown[] };
    const result = (await connection.query(query)) as { rows: Row[] };
    return result.rows;
  });
}

async function onTenantConnection<T>(
  knex: Knex,
  instanceId: string,
  fn: (pool: Knex, connection: TenantConnection) => Promise<T>,
): Promise<T> {
  if (!isUuid(instanceId)) throw new Error('withTenant: the instance id is not a UUID');
  if (knex.isTransaction) throw new Error('tenantRows: runs on the tenant pool; give it the application knex, not a transaction');
  const instance = instanceId.toLowerCase();
  const pool = tenantPoolOf(knex);
  const connection = (await pool.client.acquireConnection()) as TenantConnection;
  try {
    if (connection[INSTANCE] !== instance) {
      // Forgotten first: if the setting fails half-way the connection is set again next time.
      connection[INSTANCE] = undefined;
      await connection.query("SELECT set_config('app.instance_id', $1, false)", [instance]);
      connection[INSTANCE] = instance;
    }
    return await fn(pool, connection);
  } finally {
    await pool.client.releaseConnection(connection);
  }
}

const INSTANCE = Symbol('crm.tenantInstance');

interface TenantConnection {
  [INSTANCE]?: string;
  query(text: string | { name?: string; text: string; values?: unknown[] }, values?: unknown[]): Promise<unknown>;
}

/** At most this many tenant connections per process, and never more than the app's own pool. */
const TENANT_POOL_MAX = 10;
const pools = new WeakMap<Knex, Knex>();

function tenantPoolSize(knex: Knex): number {
  const appMax = (knex.client.config as { pool?: { max?: number } }).pool?.max;
  return Math.max(1, Math.min(TENANT_POOL_MAX, appMax ?? TENANT_POOL_MAX));
}

/** The tenant pool of an application's knex, opened on first use and closed with it. */
function tenantPoolOf(knex: Knex): Knex {
  const existing = pools.get(knex);
  if (existing) return existing;
  const pool = knexFactory({
    client: 'pg',
    connection: knex.client.config.connection as Knex.StaticConnectionConfig,
    pool: {
      min: 0,
      max: tenantPoolSize(knex),
      afterCreate(
        connection: { query(text: string, done: (error: Error | null) => void): void },
        done: (error: Error | null, connection: unknown) => void,
      ) {
        connection.query('SET ROLE crm_api', (error) => done(error, connection));
      },
    },
  });
  pools.set(knex, pool);
  // knex.destroy() ends in its client's destroy; the tenant pool closes with it.
  const client = knex.client as { destroy(callback?: unknown): Promise<void> };
  const destroy = client.destroy.bind(client);
  client.destroy = async (callback?: unknown) => {
    await pool.destroy().catch(() => undefined);
    await destroy(callback);
  };
  return pool;
}

type MakeKnex = (client: unknown) => Knex;
const makeKnex = createRequire(import.meta.url)('knex/lib/knex-builder/make-knex.js') as MakeKnex;

/**
 * A knex whose every query runs on `connection` (as a transaction's knex does, without the
 * transaction): the caller's queries, sequential or concurrent, queue on that connection.
 */
function boundTo(pool: Knex, connection: TenantConnection): Knex {
  // Made once per connection: building a knex costs more than a short read's own work, and
  // a connection serves one caller at a time, so its knex is never shared by two.
  const made = boundKnexes.get(connection);
  if (made) return made;
  const client = Object.create(pool.client) as Knex.Client & { acquireConnection(): Promise<unknown>; releaseConnection(): Promise<void> };
  client.acquireConnection = () => Promise.resolve(connection);
  client.releaseConnection = () => Promise.resolve();
  // Listeners of its own (makeKnex adds some), or they would pile up on the pool's client.
  Object.assign(client, { _events: Object.create(null) as object, _eventsCount: 0 });
  const bound = makeKnex(client);
  boundKnexes.set(connection, bound);
  return bound;
}

const boundKnexes = new WeakMap<TenantConnection, Knex>();
