import type { Knex } from 'knex';

/**
 * append_events (0005) takes an event's recorded time from the append when the event carries
 * one (`recordedAt`): a command's inline read-model rows (history times, a job's updated_at)
 * can then be written in the same message as its events, instead of one round trip after the
 * append's answer. Such an append is sent only together with those rows, so it must never be
 * answered as a replay of an earlier append (the rows were built for new events): with
 * `recordedAt`, stored ids raise CR412 and the caller appends again the ordinary way, which
 * answers the replay. Without `recordedAt` nothing changes (the database's clock_timestamp()).
 */
/** The function; without `givenTime`, 0005's (every event's time from the database's clock). */
const functionSql = (givenTime: boolean) => `
  create or replace function public.append_events(p_stream text, p_expected integer, p_events jsonb)
  returns table (event_id text, stream_id text, revision integer, tx_text text, seq_text text, replay boolean, recorded_at timestamptz)
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
${
  givenTime
    ? `if p_events->0->>'recordedAt' is not null then
        raise exception 'replayed append with read-model rows for stream %', p_stream using errcode = 'CR412';
      end if;`
    : ''
}
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
    -- ORDER BY ord makes seq follow revision order within the append.
    return query
      with inserted as (
        insert into public.events as e (stream_id, revision, event_id, type, data, metadata, recorded_at)
        select p_stream, v_current + t.ord::integer, (t.x->>'id')::uuid, t.x->>'type', t.x->'data', t.x->'metadata',
               ${givenTime ? `coalesce((t.x->>'recordedAt')::timestamptz, clock_timestamp())` : 'clock_timestamp()'}
          from jsonb_array_elements(p_events) with ordinality as t(x, ord)
         order by t.ord
        returning e.event_id, e.stream_id, e.revision, e.tx_id, e.seq, e.recorded_at
      )
      select i.event_id::text, i.stream_id, i.revision, i.tx_id::text, i.seq::text, false, i.recorded_at
        from inserted i
       order by i.revision;
  end
  $fn$
`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(functionSql(true));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(functionSql(false));
}
