import type { Knex } from 'knex';
import { CANCELED_STAGE, stageOrder, type AppointmentView } from '@crm/projections/pipeline';
import type { JobRow } from '@crm/projections/pipeline/job-rows';
import { withTenant } from '../infra/tenant-db.ts';
import { jobViewOfRow, masked } from '../pipeline/index.ts';

/** A range answers at most this many appointments (a busy shop's six weeks fit many times over). */
export const APPOINTMENTS_MAX = 2000;

/**
 * The jobs whose calendar block overlaps [from, to), soonest first: one that ends exactly at
 * `from` or starts exactly at `to` is not in it. Canceled jobs stay off the calendar; phones
 * are masked as in every list. Read through `jobs_of_instance` (the tenant rule without
 * row-level security, so the planner may use the GiST index on the block's range).
 */
export async function listAppointments(knex: Knex, instanceId: string, from: Date, to: Date): Promise<AppointmentView[]> {
  const rows = (await withTenant(knex, instanceId, (db) =>
    db
      .withSchema('rm')
      .from('jobs_of_instance')
      .where('instance_id', instanceId)
      .whereNotNull('appointment')
      .whereRaw(`tstzrange(appointment, appointment_end, '[)') && tstzrange(?::timestamptz, ?::timestamptz, '[)')`, [
        from.toISOString(),
        to.toISOString(),
      ])
      .whereNot('stage_order', stageOrder(CANCELED_STAGE))
      .orderBy([{ column: 'appointment' }, { column: 'id' }])
      .limit(APPOINTMENTS_MAX)
      .select('*'),
  )) as JobRow[];
  return rows.map((row) => ({ ...masked(jobViewOfRow(row)), appointmentEnd: new Date(row.appointment_end!).toISOString() }));
}
