import type { Knex } from 'knex';

/**
 * async_read_models_current(): whether the projector's checkpoint ('main') has passed the
 * newest event, both read in the calling statement's snapshot (a stable function takes no
 * snapshot of its own). A read of an asynchronous read model (the audit log) sends it with its
 * query: true means the rows it read hold every event committed before the statement began,
 * so read-your-writes holds without a round trip of its own; false, and the read waits for
 * the projector and reads again. Security definer: role crm_api, which runs the tenant reads,
 * may not read the events or the checkpoints themselves.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function public.async_read_models_current()
    returns boolean
    language sql stable security definer
    set search_path = pg_catalog, pg_temp
    as $fn$
      select coalesce(
        (select (c.position_commit, c.position_prepare) >= (e.tx_id::text::numeric, e.seq::numeric)
           from public.projection_checkpoints c,
                (select tx_id, seq from public.events order by tx_id desc, seq desc limit 1) e
          where c.name = 'main'),
        not exists (select 1 from public.events))
    $fn$
  `);
  await knex.raw('revoke all on function public.async_read_models_current() from public');
  await knex.raw('grant execute on function public.async_read_models_current() to crm_api');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.async_read_models_current()');
}
