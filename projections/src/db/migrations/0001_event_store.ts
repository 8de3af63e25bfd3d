import type { Knex } from 'knex';

/**
 * The PostgreSQL event store: an append-only `events` log plus one row per stream that
 * appends lock to serialise writers of the same stream.
 *
 * Global order is (tx_id, seq), not seq alone: sequence values are handed out before
 * commit, so concurrent transactions commit out of seq order. Readers only read rows of
 * transactions older than the oldest one still running (pg_snapshot_xmin), which are final.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table public.events (
      seq         bigserial   primary key,
      tx_id       xid8        not null default pg_current_xact_id(),
      stream_id   text        not null,
      revision    integer     not null check (revision >= 0),
      event_id    uuid        not null unique,
      type        text        not null,
      data        jsonb       not null,
      metadata    jsonb       not null,
      recorded_at timestamptz not null default clock_timestamp(),
      constraint events_stream_revision_key unique (stream_id, revision)
    )
  `);
  // Global reads: where (tx_id, seq) > checkpoint order by tx_id, seq.
  await knex.raw('create index events_tx_id_seq_idx on public.events (tx_id, seq)');
  // Per-instance audit log, newest or oldest first.
  await knex.raw(`create index events_instance_seq_idx on public.events ((metadata->>'instanceId'), seq)`);

  await knex.raw(`
    create table public.streams (
      stream_id text    primary key,
      revision  integer not null
    )
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table if exists public.streams');
  await knex.raw('drop table if exists public.events');
}
