import type { Knex } from 'knex';

/**
 * append_events (0010) without reading the stream's row first in the two common cases:
 *
 * - A stream that does not exist yet, expected as `no_stream` or `any` (a job's and its
 *   number's reservation on every job created): its row is inserted with its final revision
 *   and the events after it. A row already there (or committed by a concurrent creator the
 *   insert waits for) inserts nothing, and the append goes on the old way.
 * - A stream expected at the revision it is at (a job's save on the revision its row holds):
 *   an UPDATE that checks the revision moves the row on and the events go in after it. The
 *   UPDATE locks the row, so a concurrent appender with the same expected revision waits for
 *   it and then finds the row moved on, updating nothing; an append that updates nothing (a
 *   wrong revision, a retry of an append that committed) goes on the old way.
 *
 * The old way (0010's) reads the row for update, answers a retried append as a replay and
 * checks the revision; reading the row twice, updating it and looking the event ids up were
 * a quarter of the function's time on a new stream. Neither short path can meet a retry of
 * an append that committed (the stream exists, its revision has moved on), so neither looks
 * the ids up; event ids stored under another stream are refused by the events' unique key,
 * and the append fails.
 */

/** The events inserted after revision `before` (an SQL expression) and answered; ORDER BY ord makes seq follow revision order. */
const insertEvents = (before: string) => `
      return query
        with inserted as (
          insert into public.events as e (stream_id, revision, event_id, type, data, metadata, recorded_at)
          select p_stream, ${before} + t.ord::integer, (t.x->>'id')::uuid, t.x->>'type', t.x->'data', t.x->'metadata',
                 coalesce((t.x->>'recordedAt')::timestamptz, clock_timestamp())
            from jsonb_array_elements(p_events) with ordinality as t(x, ord)
           order by t.ord
          returning e.event_id, e.stream_id, e.revision, e.tx_id, e.seq, e.recorded_at
        )
        select i.event_id::text, i.stream_id, i.revision, i.tx_id::text, i.seq::text, false, i.recorded_at
          from inserted i
         order by i.revision;`;

const shortPathsSql = `
    if p_expected >= 0 then
      update public.streams s set revision = p_expected + jsonb_array_length(p_events)
       where s.stream_id = p_stream and s.revision = p_expected;
      if found then
${insertEvents('p_expected')}
        return;
      end if;
    end if;
    if p_expected in (-1, -2) then
      insert into public.streams as s (stream_id, revision)
      values (p_stream, jsonb_array_length(p_events) - 1)
      on conflict do nothing;
      if found then
${insertEvents('-1')}
        return;
      end if;
    end if;
`;

/** The function; without `shortPaths`, 0010's. */
const functionSql = (shortPaths: boolean) => `
  create or replace function public.append_events(p_stream text, p_expected integer, p_events jsonb)
  returns table (event_id text, stream_id text, revision integer, tx_text text, seq_text text, replay boolean, recorded_at timestamptz)
  language plpgsql volatile
  as $fn$
  declare
    v_current integer;
    v_count integer;
  begin
${shortPaths ? shortPathsSql : ''}
    select s.revision into v_current from public.streams s where s.stream_id = p_stream for update;
    if not found then
      -- A concurrent creator makes this insert wait for it; then the select sees its row.
      -- The -1 row only survives if this transaction commits, i.e. after appending events.
      insert into public.streams as s (stream_id, revision) values (p_stream, -1) on conflict do nothing;
      select s.revision into v_current from public.streams s where s.stream_id = p_stream for update;
    end if;

    -- Idempotency comes before the revision check so that a retried append succeeds.
    if exists (
      select 1 from public.events e
       where e.event_id in (select (x->>'id')::uuid from jsonb_array_elements(p_events) x)
    ) then
      if p_events->0->>'recordedAt' is not null then
        raise exception 'replayed append with read-model rows for stream %', p_stream using errcode = 'CR412';
      end if;
      return query
        select e.event_id::text, e.stream_id, e.revision, e.tx_id::text, e.seq::text, true, e.recorded_at
          from public.events e
         where e.event_id in (select (x->>'id')::uuid from jsonb_array_elements(p_events) x);
      return;
    end if;

    if not (p_expected = -2 or p_expected = v_current) then
      raise exception 'wrong expected revision for stream %', p_stream
        using errcode = 'CR409', detail = v_current::text;
    end if;

    v_count := jsonb_array_length(p_events);
    update public.streams s set revision = v_current + v_count where s.stream_id = p_stream;
${insertEvents('v_current')}
  end
  $fn$
`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(functionSql(true));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(functionSql(false));
}
