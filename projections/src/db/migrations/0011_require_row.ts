import type { Knex } from 'knex';

/**
 * require_row: fails the transaction it runs in (SQLSTATE CR404, the message naming what is
 * missing) when `p_found` is false. An append that needs a row to exist (a job for a chosen
 * customer needs the customer's row) sends the check in the same message as its events
 * (AppendOptions.requires), so the check costs no round trip of its own and a missing row
 * records nothing.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function public.require_row(p_found boolean, p_what text)
    returns void
    language plpgsql volatile
    as $fn$
    begin
      if not p_found then
        raise exception 'required row missing: %', p_what using errcode = 'CR404';
      end if;
    end
    $fn$
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop function if exists public.require_row(boolean, text)');
}
