import type { Knex } from 'knex';
import { CANCELED_STAGE, stageOrder } from '@crm/projections/pipeline';
import { tenantRows } from '../infra/tenant-db.ts';
import { jobListViewJsonSql } from '../pipeline/index.ts';
import { isoTimeSql } from '../shared/json-sql.ts';

/** A range answers at most this many appointments (a busy shop's six weeks fit many times over). */
export const APPOINTMENTS_MAX = 2000;

/**
 * The jobs whose calendar block overlaps [$2, $3), soonest first, as one JSON array's text of
 * AppointmentViews (a job's list view, phone masked, and where its block ends) that PostgreSQL
 * builds and the API sends unparsed. Canceled jobs ($4) stay off the calendar. Read through
 * `jobs_of_instance` (the tenant rule without row-level security, so the planner may use the
 * GiST index on the block's range). Fixed text: the week is a hot read.
 */
const WEEK_SQL = `SELECT '[' || coalesce(string_agg(${jobListViewJsonSql('j', `, ${isoTimeSql('j.appointment_end')} AS "appointmentEnd"`)}, ','
      ORDER BY j.appointment, j.id), '') || ']' AS items
    FROM (SELECT * FROM rm.jobs_of_instance
           WHERE instance_id = $1 AND appointment IS NOT NULL
             AND tstzrange(appointment, appointment_end, '[)') && tstzrange($2::timestamptz, $3::timestamptz, '[)')
             AND stage_order <> $4
           ORDER BY appointment, id LIMIT ${APPOINTMENTS_MAX}) j`;

/** The calendar's statement for [from, to): `items`, the JSON text. The bench's bare route runs this same text. */
export function appointmentsStatement(instanceId: string, from: Date, to: Date): { text: string; values: unknown[] } {
  return { text: WEEK_SQL, values: [instanceId, from.toISOString(), to.toISOString(), stageOrder(CANCELED_STAGE)] };
}

/**
 * The jobs whose calendar block overlaps [from, to) as AppointmentView[] JSON text, soonest
 * first, in one round trip: one that ends exactly at `from` or starts exactly at `to` is not
 * in it; phones are masked as in every list.
 */
export async function appointmentsJson(knex: Knex, instanceId: string, from: Date, to: Date): Promise<string> {
  const { text, values } = appointmentsStatement(instanceId, from, to);
  return (await tenantRows<{ items: string }>(knex, instanceId, text, values))[0]!.items;
}
