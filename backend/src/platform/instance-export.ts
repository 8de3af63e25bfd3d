import type { Knex } from 'knex';
import { z } from 'zod';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { isUuid } from '@crm/projections/shared';
import { NotFoundError } from '../shared/errors.ts';

/**
 * Backup and export of one shop: its whole history, the events, one JSON object per line
 * (JSONL) in the order the log recorded them. A shop's events are those recorded in its
 * instance (metadata.instanceId) and the provider's events about it (its creation,
 * deactivation and edits name it in their data). Read models are not exported: they are
 * rebuilt from the events, so `npm run import` followed by a rebuild gives the same ones.
 */

export const EXPORT_FORMAT = 'shop-crm-events';

/** One line of an export: an event as the store recorded it. */
export const exportedEvent = z.object({
  id: z.string().uuid(),
  streamId: z.string().min(1),
  revision: z.number().int().min(0),
  type: z.string().min(1),
  data: z.unknown(),
  metadata: z.record(z.string(), z.unknown()),
  recordedAt: z.string().datetime({ offset: true }),
});
export type ExportedEvent = z.infer<typeof exportedEvent>;

interface Row {
  tx_text: string;
  seq_text: string;
  event_id: string;
  stream_id: string;
  revision: number;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: Date;
}

const PAGE = 2_000;
const MINE = `(e.metadata->>'instanceId' = ? or (e.metadata->>'instanceId' is null and e.data->>'instanceId' = ?))`;

/** The instance an id or subdomain names (the export script takes either). */
export async function resolveInstance(knex: Knex, idOrSubdomain: string): Promise<{ id: string; subdomain: string }> {
  const subdomain = idOrSubdomain.toLowerCase();
  const query = knex.withSchema(READ_MODEL_SCHEMA).from('crm_instances').select('id', 'subdomain');
  const row = (await (isUuid(idOrSubdomain) ? query.where({ id: idOrSubdomain }) : query.where({ subdomain })).first()) as
    { id: string; subdomain: string } | undefined;
  if (!row) throw new NotFoundError('CRM instance not found');
  return row;
}

/** How many events an export of the instance holds (for progress). */
export async function countInstanceEvents(knex: Knex, instanceId: string): Promise<number> {
  const result = await knex.raw<{ rows: { n: string }[] }>(`select count(*)::text as n from events e where ${MINE}`, [
    instanceId,
    instanceId,
  ]);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * The instance's events in log order, a page at a time (keyset on the global position), so
 * a shop with millions of events streams in constant memory. Only committed events below
 * the visibility horizon are read, as every global reader does: a page never skips an
 * event that commits later with a lower position.
 */
export async function* instanceEvents(knex: Knex, instanceId: string): AsyncGenerator<ExportedEvent> {
  let after: { tx: string; seq: string } | null = null;
  for (;;) {
    const bound: string = after ? `and (e.tx_id, e.seq) > (?::text::xid8, ?::bigint)` : '';
    const values: Array<string | number> = after ? [instanceId, instanceId, after.tx, after.seq, PAGE] : [instanceId, instanceId, PAGE];
    const result: { rows: Row[] } = await knex.raw<{ rows: Row[] }>(
      `select e.tx_id::text as tx_text, e.seq::text as seq_text, e.event_id::text as event_id, e.stream_id, e.revision,
              e.type, e.data, e.metadata, e.recorded_at
         from events e
        where ${MINE} and e.tx_id < pg_snapshot_xmin(pg_current_snapshot()) ${bound}
        order by e.tx_id, e.seq
        limit ?`,
      values,
    );
    for (const row of result.rows) {
      yield {
        id: row.event_id,
        streamId: row.stream_id,
        revision: row.revision,
        type: row.type,
        data: row.data,
        metadata: row.metadata,
        recordedAt: row.recorded_at.toISOString(),
      };
    }
    const last = result.rows[result.rows.length - 1];
    if (!last || result.rows.length < PAGE) return;
    after = { tx: last.tx_text, seq: last.seq_text };
  }
}

/**
 * The last line of every export: how many events come before it. A file cut short at a
 * line boundary would otherwise read as a smaller, valid export; without this line (or
 * with another count) the import refuses the file.
 */
export const exportEndLine = z.object({ end: z.literal(EXPORT_FORMAT), events: z.number().int().min(0) }).strict();

/** The export as JSONL text chunks: one event per line, then the end line. */
export async function* instanceEventLines(knex: Knex, instanceId: string, onEvent?: () => void): AsyncGenerator<string> {
  let chunk = '';
  let count = 0;
  for await (const event of instanceEvents(knex, instanceId)) {
    chunk += `${JSON.stringify(event)}\n`;
    count++;
    onEvent?.();
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  yield `${chunk}${JSON.stringify({ end: EXPORT_FORMAT, events: count } satisfies z.infer<typeof exportEndLine>)}\n`;
}
