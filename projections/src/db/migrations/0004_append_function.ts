import type { Knex } from 'knex';

/**
 * One append in one statement (one round trip, one implicit transaction): the adapter calls
 * `append_events(stream, expected, events)` instead of sending begin / lock / check / insert /
 * update / commit one by one.
 *
 * expected: a revision (>= 0), -1 for no_stream, -2 for any. events: a jsonb array of
 * { id, type, data, metadata }. It locks the stream's row (creating it when new), answers an
 * exact replay of stored event ids with the stored rows (replay = true; the adapter checks
 * that it is one), raises SQLSTATE CR409 with the actual revision (-1: no stream) in DETAIL on
 * a wrong expected revision, and otherwise inserts the events (seq follows their order) and
 * moves the stream's revision. Each statement in the function sees the rows committed before
 * it ran (READ COMMITTED, VOLATILE), so the id check after the lock sees a racing retry.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function public.append_events(p_stream text, p_expected integer, p_events jsonb)
    returns table (event_id text, stream_id text, revision integer, tx_text text, seq_text text, replay boolean)
    language plpgsql volatile
    as $fn$
    declare
      v_current integer;
      v_count integer;
    begin
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
        return query
          select e.event_id::text, e.stream_id, e.revision, e.tx_id::text, e.seq::text, true
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
      -- ORDER BY ord makes seq follow revision order within the append.
      return query
        with inserted as (
          insert into public.events as e (stream_id, revision, event_id, type, data, metadata)
          select p_stream, v_current + t.ord::integer, (t.x->>'id')::uuid, t.x->>'type', t.x->'data', t.x->'metadata'
            from jsonb_array_elements(p_events) with ordinality as t(x, ord)
           order by t.ord
          returning e.event_id, e.stream_id, e.revision, e.tx_id, e.seq
        )
        select i.event_id::text, i.stream_id, i.revision, i.tx_id::text, i.seq::text, false
          from inserted i
         order by i.revision;
    end
    $fn$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.append_events(text, integer, jsonb)');
}
