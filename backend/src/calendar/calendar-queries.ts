import type { Knex } from 'knex';
import { CANCELED_STAGE, stageOrder, type AppointmentView } from '@crm/projections/pipeline';
import type { JobRow } from '@crm/projections/pipeline/job-rows';
import { tenantRows } from '../infra/tenant-db.ts';
import { jobViewOfRow, masked } from '../pipeline/index.ts';

/** A range answers at most this many appointments (a busy shop's six weeks fit many times over). */
export const APPOINTMENTS_MAX = 2000;

/** Fixed SQL text (the calendar's week is a hot read: knex built it again on every request). */
const WEEK_SQL = `SELECT * FROM rm.jobs_of_instance
   WHERE instance_id = $1 AND appointment IS NOT NULL
     AND tstzrange(appointment, appointment_end, '[)') && tstzrange($2::timestamptz, $3::timestamptz, '[)')
     AND stage_order <> $4
   ORDER BY appointment, id LIMIT ${APPOINTMENTS_MAX}`;

/**
 * The jobs whose calendar block overlaps [from, to), soonest first: one that ends exactly at
 * `from` or starts exactly at `to` is not in it. Canceled jobs stay off the calendar; phones
 * are masked as in every list. Read through `jobs_of_instance` (the tenant rule without
 * row-level security, so the planner may use the GiST index on the block's range).
 */
export async function listAppointments(knex: Knex, instanceId: string, from: Date, to: Date): Promise<AppointmentView[]> {
  const rows = await tenantRows<JobRow>(knex, instanceId, WEEK_SQL, [
    instanceId,
    from.toISOString(),
    to.toISOString(),
    stageOrder(CANCELED_STAGE),
  ]);
  return rows.map((row) => ({ ...masked(jobViewOfRow(row)), appointmentEnd: new Date(row.appointment_end!).toISOString() }));
}
