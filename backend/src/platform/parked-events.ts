import type { Knex } from 'knex';
import type { ParkedChanges, ParkedEventView } from '@crm/projections/contract';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';

/** The newest parked events a list shows (they are rare; an operator fixes their cause). */
const LIST_LIMIT = 200;

interface ParkedRow {
  checkpoint_name: string;
  event_id: string;
  stream_id: string;
  type: string;
  error: string;
  parked_at: Date;
}

/** The shop each event was recorded in, from the log (the parked row does not keep it). */
async function instancesOf(deps: AppDeps, eventIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(eventIds.filter(isUuid))];
  // Only the PostgreSQL store has the events at hand for a join; on EventStoreDB the
  // instance is unknown and the events are listed to the super admin only.
  if (ids.length === 0 || deps.store.kind !== 'postgres') return new Map();
  const rows = (await deps
    .knex('events')
    .whereIn('event_id', ids)
    .select('event_id', deps.knex.raw(`coalesce(metadata->>'instanceId', data->>'instanceId') as instance_id`))) as Array<{
    event_id: string;
    instance_id: string | null;
  }>;
  return new Map(rows.filter((r) => r.instance_id).map((r) => [String(r.event_id), r.instance_id!]));
}

async function subdomainsOf(knex: Knex, instanceIds: string[]): Promise<Map<string, string>> {
  if (instanceIds.length === 0) return new Map();
  const rows = (await knex
    .withSchema(READ_MODEL_SCHEMA)
    .from('crm_instances')
    .whereIn('id', [...new Set(instanceIds)])
    .select('id', 'subdomain')) as Array<{ id: string; subdomain: string }>;
  return new Map(rows.map((r) => [r.id, r.subdomain]));
}

const recordIdOf = (streamId: string) => streamId.slice(streamId.indexOf('-') + 1);

/** Parked events, newest first: every shop's (instanceId null) or one shop's. */
export async function listParked(deps: AppDeps, instanceId: string | null): Promise<ParkedEventView[]> {
  const rows = (await deps.knex('parked_events').orderBy('parked_at', 'desc').limit(LIST_LIMIT).select()) as ParkedRow[];
  const instances = await instancesOf(
    deps,
    rows.map((r) => r.event_id),
  );
  const subdomains = await subdomainsOf(deps.knex, [...instances.values()]);
  return rows
    .map((row): ParkedEventView => {
      const instance = instances.get(row.event_id) ?? null;
      return {
        eventId: row.event_id,
        type: row.type,
        streamId: row.stream_id,
        recordId: recordIdOf(row.stream_id),
        instanceId: instance,
        subdomain: instance ? (subdomains.get(instance) ?? null) : null,
        checkpoint: row.checkpoint_name,
        error: row.error,
        parkedAt: new Date(row.parked_at).toISOString(),
      };
    })
    .filter((view) => instanceId === null || view.instanceId === instanceId);
}

/** Whether one of the shop's records has parked changes (its streams end with the record's id). */
export async function parkedChangesOf(deps: AppDeps, instanceId: string, recordId: string): Promise<ParkedChanges> {
  if (!recordId || recordId.length > 200) return { count: 0, lastParkedAt: null };
  const rows = (await deps
    .knex('parked_events')
    .whereRaw(`right(stream_id, ?) = ?`, [recordId.length + 1, `-${recordId}`])
    .select('event_id', 'parked_at')) as Array<{ event_id: string; parked_at: Date }>;
  const instances = await instancesOf(
    deps,
    rows.map((r) => r.event_id),
  );
  // One event parked by several projectors is one change.
  const mine = new Map<string, Date>();
  for (const row of rows) {
    if (instances.get(row.event_id) !== instanceId) continue;
    const seen = mine.get(row.event_id);
    if (!seen || seen < row.parked_at) mine.set(row.event_id, row.parked_at);
  }
  const last = [...mine.values()].sort((a, b) => b.getTime() - a.getTime())[0];
  return { count: mine.size, lastParkedAt: last ? new Date(last).toISOString() : null };
}
