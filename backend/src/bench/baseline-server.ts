import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import pg from 'pg';
import type { JobListQuery } from '@crm/projections/pipeline';
import { AUDIT_PAGE_SIZE } from '@crm/projections/contract';
import { appointmentsStatement } from '../calendar/index.ts';
import { auditPageBody, auditPageStatement, type AuditPageRow } from '../audit/index.ts';
import { customerListBody, customerListStatement, customerSuggestStatement, type CustomerListRow } from '../customers/index.ts';
import { preparedStatementName } from '../infra/prepared-statements.ts';
import { jobListBody, jobListStatement, type JobListRow } from '../pipeline/index.ts';
import { BASELINE_TABLE, CRUD_TABLES } from './baseline-sql.ts';

/**
 * The benchmark's baseline: a bare Koa app in its own process, on the same database as the
 * API, with one pg pool and no session, no tenant role, no row-level security, no events.
 * Each route runs the plain SQL the API's figure is compared with:
 *   POST /jobs            one INSERT
 *   PUT  /jobs/:id        one UPDATE
 *   GET  /reads/:name     the read the API route runs (same tables, filter, order, limit)
 *   POST /crud/jobs       the CRUD-equivalent save (see `crudSave`)
 *   PUT  /crud/jobs/:id   the same for an update
 * Environment: DATABASE_URL, PORT (127.0.0.1 only).
 */

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.BENCH_BASELINE_POOL ?? 20) });
pool.on('error', () => {});
const PAGE = 50;

type Query = Record<string, string | undefined>;

/**
 * The API's statement on the bare route's connection: the customers and jobs are read from their
 * tables rather than the tenant views (which keep only the instance set for the API's connection, and
 * none is set here); the statement filters on the instance itself, as the view would.
 */
const withoutTenantView = (text: string) =>
  text.replaceAll('rm.customers_of_instance', 'rm.customers').replaceAll('rm.jobs_of_instance', 'rm.jobs');

/** The reads, as the API's queries issue them (see pipeline/job-queries.ts, customers/customer-queries.ts, audit/audit-queries.ts). */
const reads: Record<string, (q: Query) => Promise<unknown>> = {
  async 'jobs-list'(q) {
    // The API's very statement (PostgreSQL builds the page's JSON) and the same body from its
    // row, for the query the API's defaults make of ?q= (stage order, canceled hidden).
    const query: JobListQuery = { sort: 'stage', canceled: 'hide', limit: PAGE, q: q.q?.trim() || undefined };
    const { text, values } = jobListStatement(q.instance ?? '', query);
    const { rows } = await pool.query<JobListRow>(withoutTenantView(text), values);
    return jobListBody(query, rows[0]!);
  },
  async 'customers-list'(q) {
    // The API's very statement (PostgreSQL builds the page's JSON) and the same body from its row.
    // Prepared when the API prepares it (tenantRows).
    const { text, values, prepared } = customerListStatement(q.instance ?? '', { search: q.q ?? '', limit: PAGE, cursor: null });
    const bare = withoutTenantView(text);
    const name = prepared ? preparedStatementName(bare) : undefined;
    const { rows } = await pool.query<CustomerListRow>(name ? { name, text: bare, values } : { text: bare, values });
    return customerListBody(rows[0]!);
  },
  async autocomplete(q) {
    const statement = customerSuggestStatement(q.instance ?? '', q.query ?? '');
    if (!statement) return '[]';
    const { rows } = await pool.query<{ items: string }>(withoutTenantView(statement.text), statement.values);
    return rows[0]!.items;
  },
  async audit(q) {
    // The API's very statement (PostgreSQL builds the page's JSON) and the same body from its row.
    // Prepared under the same name as the API prepares it (tenantRows), when it does.
    const { text, values, prepared } = auditPageStatement(q.instance ?? '', {}, AUDIT_PAGE_SIZE);
    const name = prepared ? preparedStatementName(text) : undefined;
    const { rows } = await pool.query<AuditPageRow>(name ? { name, text, values } : { text, values });
    return auditPageBody(rows[0]!);
  },
  async calendar(q) {
    // The API's very statement (PostgreSQL builds the items' JSON) and the same body around it.
    const { text, values } = appointmentsStatement(q.instance ?? '', new Date(q.from ?? ''), new Date(q.to ?? ''));
    const { rows } = await pool.query<{ items: string }>(withoutTenantView(text), values);
    return `{"items":${rows[0]!.items}}`;
  },
};

type Row = Record<string, unknown>;

/** One row of each table the CRUD save writes, per instance: the columns a real form would fill. */
const templates = new Map<string, Promise<{ job: Row; history: Row; activity: Row }>>();

function templatesOf(instanceId: string) {
  let loaded = templates.get(instanceId);
  if (!loaded) {
    const one = async (table: string) => {
      const { rows } = await pool.query<{ row: Row }>(`SELECT to_jsonb(t) AS row FROM ${table} t WHERE instance_id = $1 LIMIT 1`, [
        instanceId,
      ]);
      if (!rows[0]) throw new Error(`CRUD baseline: ${table} has no row of instance ${instanceId} to copy`);
      return rows[0].row;
    };
    loaded = Promise.all([one('rm.jobs'), one('rm.job_history'), one('rm.activity')]).then(([job, history, activity]) => ({
      job,
      history,
      activity,
    }));
    loaded.catch(() => templates.delete(instanceId));
    templates.set(instanceId, loaded);
  }
  return loaded;
}

let crudNumber = 100_000_000;
let crudPosition = 10n ** 15n;
const SESSION_KEY = /(?:^|;\s*)crm\.sid=([^;]+)/;
const UUID = /^[0-9a-f-]{36}$/i;

/**
 * The same save as the API's command, done the way a CRUD app does it: look the session up
 * (with its user, permissions and instance, as the API's guard does), then in one transaction
 * set the role and tenant, INSERT or UPDATE the jobs row (same columns, indexes and policy),
 * and add a history row and an activity row. No events, no projector, no cache.
 */
async function crudSave(ctx: Koa.Context, jobId: string | null): Promise<void> {
  const key = SESSION_KEY.exec(ctx.get('cookie'))?.[1];
  const session = key
    ? await pool.query<{ instance_id: string; user_id: string; can_write: boolean; is_locked: boolean; instance_active: boolean }>(
        `SELECT s.instance_id, s.user_id, p.can_write, u.is_locked, i.is_active AS instance_active
           FROM sessions s JOIN rm.users u ON u.id = s.user_id AND u.instance_id = s.instance_id
           JOIN rm.user_permissions p ON p.user_id = u.id JOIN rm.crm_instances i ON i.id = u.instance_id
          WHERE s.id = $1 AND s.expires_at > now() LIMIT 1`,
        [decodeURIComponent(key)],
      )
    : null;
  const who = session?.rows[0];
  if (!who || !who.can_write || who.is_locked || !who.instance_active || !UUID.test(who.instance_id)) {
    ctx.status = 401;
    return;
  }
  const template = await templatesOf(who.instance_id);
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  const now = new Date().toISOString();
  const id = jobId ?? randomUUID();
  const client = await pool.connect();
  try {
    await client.query(`BEGIN; SET LOCAL ROLE crm_api; SELECT set_config('app.instance_id', '${who.instance_id.toLowerCase()}', true)`);
    let job: Row | undefined;
    if (jobId) {
      const updated = await client.query(
        `UPDATE ${CRUD_TABLES.jobs} SET notes = $2, revision = revision + 1, updated_at = now() WHERE id = $1 RETURNING *`,
        [jobId, String(body.notes ?? '')],
      );
      job = updated.rows[0] as Row | undefined;
    } else {
      const number = ++crudNumber;
      const row = { ...template.job, id, number, job_number: `B${number}`, created_at: now, updated_at: now, revision: 1 };
      for (const field of ['name', 'phone', 'part', 'notes']) if (typeof body[field] === 'string') (row as Row)[field] = body[field];
      const inserted = await client.query(
        `INSERT INTO ${CRUD_TABLES.jobs} SELECT * FROM jsonb_populate_record(NULL::${CRUD_TABLES.jobs}, $1::jsonb) RETURNING *`,
        [JSON.stringify(row)],
      );
      job = inserted.rows[0] as Row | undefined;
    }
    if (!job) {
      await client.query('ROLLBACK');
      ctx.status = 404;
      return;
    }
    const changes = jobId ? [{ field: 'notes', oldValue: null, newValue: body.notes ?? '' }] : [];
    const eventId = randomUUID();
    await client.query(`INSERT INTO ${CRUD_TABLES.history} SELECT * FROM jsonb_populate_record(NULL::${CRUD_TABLES.history}, $1::jsonb)`, [
      JSON.stringify({ ...template.history, event_id: eventId, job_id: id, revision: job.revision, occurred_at: now, changes }),
    ]);
    const position = String(++crudPosition);
    await client.query(
      `INSERT INTO ${CRUD_TABLES.activity} SELECT * FROM jsonb_populate_record(NULL::${CRUD_TABLES.activity}, $1::jsonb)`,
      [
        JSON.stringify({
          ...template.activity,
          event_id: eventId,
          entity_id: id,
          position_commit: position,
          position_prepare: position,
          occurred_at: now,
          changes,
        }),
      ],
    );
    await client.query('COMMIT');
    ctx.status = jobId ? 200 : 201;
    ctx.body = job;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

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
  if (first === 'crud' && second === 'jobs') {
    const third = ctx.path.split('/')[3];
    if (ctx.method === 'POST' && !third) return await crudSave(ctx, null);
    if (ctx.method === 'PUT' && third) return await crudSave(ctx, third);
  }
  const read = ctx.method === 'GET' && first === 'reads' && second ? reads[second] : undefined;
  if (read) {
    const body = await read(ctx.query as Query);
    // A body PostgreSQL built as JSON text is sent as it is, as JSON.
    if (typeof body === 'string') ctx.type = 'json';
    ctx.body = body;
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
// Stopped by SIGTERM: exits rather than dies, so a CPU profile (BENCH_API_CPU_PROF) is written.
process.on('SIGTERM', () => process.exit(0));
