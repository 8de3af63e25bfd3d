import type { Knex } from 'knex';

/**
 * lock_checkpoint_before: takes a projection checkpoint's row (FOR UPDATE, as a batch's first
 * statement does) and fails the transaction it runs in (SQLSTATE CR410, the message naming the
 * checkpoint) when the stored position is at or past `p_commit`/`p_prepare`, the first event
 * of the batch. A projector batch that only writes sends it with its writes and its COMMIT in
 * one message: it applies its events without having heard the checkpoint, and this check
 * stops it from committing any of them when another writer applied some already. No row: no
 * lock and nothing applied yet (the position is the start of the log).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function public.lock_checkpoint_before(p_name text, p_commit numeric, p_prepare numeric)
    returns void
    language plpgsql volatile
    as $fn$
    declare
      v_commit numeric;
      v_prepare numeric;
    begin
      select position_commit, position_prepare into v_commit, v_prepare
        from public.projection_checkpoints where name = p_name for update;
      if found and (v_commit, v_prepare) >= (p_commit, p_prepare) then
        raise exception 'checkpoint % is at %/%, at or past the batch''s first event %/%', p_name, v_commit, v_prepare, p_commit, p_prepare
          using errcode = 'CR410';
      end if;
    end
    $fn$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.lock_checkpoint_before(text, numeric, numeric)');
}
