import type { Knex } from 'knex';
import type { BoardSummary } from '@crm/projections/contract';
import { STAGES } from '@crm/projections/pipeline';
import { withTenant } from '../infra/tenant-db.ts';
import { filtered } from './job-list.ts';

/**
 * The stage board's column heads: jobs and quote totals per stage, for the list's search
 * (the same filter the list uses, so a column's count is the count of its cards).
 */
export async function boardSummary(knex: Knex, instanceId: string, q: string | undefined): Promise<BoardSummary> {
  const rows = await withTenant(
    knex,
    instanceId,
    async (db) =>
      (await filtered(db, instanceId, { q, canceled: 'include', sort: 'stage', limit: 1 })
        .select('stage_order')
        .count({ count: '*' })
        .sum({ quote_total: 'quote' })
        .groupBy('stage_order')) as Array<{ stage_order: number; count: string | number; quote_total: string | number | null }>,
  );
  const byOrder = new Map(rows.map((row) => [Number(row.stage_order), row]));
  return {
    stages: STAGES.map((stage, order) => {
      const row = byOrder.get(order);
      return { stage, count: Number(row?.count ?? 0), quoteTotal: Number(row?.quote_total ?? 0) };
    }),
  };
}
