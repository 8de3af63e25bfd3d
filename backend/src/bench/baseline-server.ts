import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import pg from 'pg';
import { CUSTOMER_SUGGESTIONS } from '@crm/projections/customers';
import { CANCELED_STAGE, stageOrder } from '@crm/projections/pipeline';
import { BASELINE_TABLE } from './baseline-sql.ts';

/**
 * The benchmark's baseline: a bare Koa app in its own process, on the same database as the
 * API, with one pg pool and no session, no tenant role, no row-level security, no events.
 * Each route runs the plain SQL the API's figure is compared with:
 *   POST /jobs            one INSERT
 *   PUT  /jobs/:id        one UPDATE
 *   GET  /reads/:name     the read the API route runs (same tables, filter, order, limit)
 * Environment: DATABASE_URL, PORT (127.0.0.1 only).
 */

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BENCH_BASELINE_POOL ?? 20) });
pool.on('error', () => {});
const CANCELED = stageOrder(CANCELED_STAGE);
const PAGE = 50;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
const like = (q: string) => `%${escapeLike(q.trim().toLowerCase())}%`;

const CUSTOMER_COLUMNS =
  'id, number, name, phone, email, address, vehicles, past_appointments, invoices, notes, created_at, created_by, last_modified_at, last_modified_by, revision';
const ACTIVITY_COLUMNS =
  'event_id, position_commit, position_prepare, event_type, entity_type, entity_id, actor_kind, actor_id, actor_name, summary, changes, occurred_at';

type Query = Record<string, string | undefined>;

/** The reads, as the API's queries issue them (see pipeline/job-queries.ts, customers/customer-queries.ts, audit/audit-queries.ts). */
const reads: Record<string, (q: Query) => Promise<unknown>> = {
  async 'jobs-list'(q) {
    const search = q.q ? ' AND search LIKE $3' : '';
    const params: unknown[] = [q.instance, CANCELED, ...(q.q ? [like(q.q)] : [])];
    // As the API: the total from job_counts without a search, counted with one; one statement with the page.
    const count = q.q
      ? `SELECT count(*) AS total FROM rm.jobs WHERE instance_id = $1 AND stage_order <> $2${search}`
      : 'SELECT coalesce(sum(total), 0) AS total FROM rm.job_counts WHERE instance_id = $1 AND stage_order <> $2';
    const result = await pool.query(
      `SELECT c.total AS page_total, p.* FROM (${count}) c LEFT JOIN LATERAL (
         SELECT *, stage_order AS sort_key_0, created_at AS sort_key_1, id AS sort_key_2 FROM rm.jobs
          WHERE instance_id = $1 AND stage_order <> $2${search}
          ORDER BY stage_order asc, created_at desc, id desc LIMIT ${PAGE + 1}) p ON true`,
      params,
    );
    const rows = result.rows.filter((row: { id: string | null }) => row.id !== null);
    return { items: rows.slice(0, PAGE), total: Number(result.rows[0]?.page_total ?? 0) };
  },
  async 'customers-list'(q) {
    const search = q.q ? ' AND search LIKE $2' : '';
    const params: unknown[] = [q.instance, ...(q.q ? [like(q.q)] : [])];
    const page = await pool.query(
      `SELECT ${CUSTOMER_COLUMNS} FROM rm.customers WHERE instance_id = $1${search} ORDER BY created_at desc, id desc LIMIT ${PAGE + 1}`,
      params,
    );
    const count = q.q
      ? await pool.query(`SELECT count(*) AS n FROM rm.customers WHERE instance_id = $1${search}`, params)
      : await pool.query('SELECT total AS n FROM rm.customer_counts WHERE instance_id = $1', params);
    return { items: page.rows.slice(0, PAGE), total: Number(count.rows[0]?.n ?? 0) };
  },
  async autocomplete(q) {
    const { rows } = await pool.query(
      `SELECT id, number, name, phone, vehicles FROM rm.customers WHERE instance_id = $1 AND search LIKE $2
        ORDER BY created_at desc, id desc LIMIT ${CUSTOMER_SUGGESTIONS}`,
      [q.instance, like(q.query ?? '')],
    );
    return rows;
  },
  async audit(q) {
    const { rows } = await pool.query(
      `SELECT ${ACTIVITY_COLUMNS} FROM rm.activity WHERE instance_id = $1
        ORDER BY position_commit desc, position_prepare desc LIMIT ${PAGE + 1}`,
      [q.instance],
    );
    return { items: rows.slice(0, PAGE) };
  },
  async calendar(q) {
    const { rows } = await pool.query(
      `SELECT * FROM rm.jobs WHERE instance_id = $1 AND appointment >= $2 AND appointment < $3 AND stage_order <> $4
        ORDER BY appointment, id LIMIT 2000`,
      [q.instance, q.from, q.to, CANCELED],
    );
    return { items: rows };
  },
};

const app = new Koa();
app.use(bodyParser());
app.use(async (ctx) => {
  const [, first, second] = ctx.path.split('/');
  if (ctx.method === 'POST' && first === 'jobs' && !second) {
    const { rows } = await pool.query(`INSERT INTO ${BASELINE_TABLE} (id, instance_id, data) VALUES ($1, $2, $3) RETURNING *`, [
      randomUUID(),
      ctx.query.instance ?? randomUUID(),
      JSON.stringify(ctx.request.body ?? {}),
    ]);
    ctx.status = 201;
    ctx.body = rows[0];
    return;
  }
  if (ctx.method === 'PUT' && first === 'jobs' && second) {
    const { rows } = await pool.query(
      `UPDATE ${BASELINE_TABLE} SET data = data || $2::jsonb, revision = revision + 1, updated_at = now() WHERE id = $1 RETURNING *`,
      [second, JSON.stringify(ctx.request.body ?? {})],
    );
    ctx.status = rows.length ? 200 : 404;
    ctx.body = rows[0] ?? { error: 'not found' };
    return;
  }
  const read = ctx.method === 'GET' && first === 'reads' && second ? reads[second] : undefined;
  if (read) {
    ctx.body = await read(ctx.query as Query);
    return;
  }
  ctx.status = 404;
});

const handle = app.callback();
const server = createServer((req, res) => void handle(req, res));
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('disconnect', () => {
  server.close();
  void pool.end().finally(() => process.exit(0));
});
