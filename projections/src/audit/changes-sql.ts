/**
 * A job event's change list is kept once, in its `job_history` row (written with the event,
 * unmasked: the job's own history shows the whole phone); its `activity` row holds NULL there
 * (audit/projection.ts, activityRow). These build the SQL that reads an activity row's change
 * list, in the stored compact form, from wherever it is kept, with the timeline's phone mask
 * (shared/phone.ts, maskPhone: the last 4 digits) applied to what comes from the history by
 * the read-model schema's function timeline_masked_phone_change (audit/migrations.ts, 0082).
 * Text only: the audit queries and the tests put it in their statements.
 */

/**
 * `c` masked where it is a phone's change. The mask is a function, called for a phone's change
 * only: written out in the statement it was most of the audit page's planning time.
 */
export function maskedStoredChangeSql(c: string, schema = 'rm'): string {
  return `CASE WHEN ${c} ->> 0 = 'phone' OR ${c} ->> 'field' = 'phone' THEN ${schema}.timeline_masked_phone_change(${c}) ELSE ${c} END`;
}

/**
 * The stored change list of the activity row `alias` (jsonb, compact form), as the timeline
 * shows it: its own, or its job_history row's masked; '[]' should neither hold one.
 * `schema` is the read models' schema as the statement names it (e.g. `rm`).
 */
export function activityChangesSql(alias: string, schema = 'rm'): string {
  return `coalesce(${alias}.changes,
      (SELECT coalesce(jsonb_agg(${maskedStoredChangeSql('hc.c', schema)} ORDER BY hc.i), '[]')
         FROM ${schema}.job_history h, jsonb_array_elements(h.changes) WITH ORDINALITY AS hc(c, i)
        WHERE h.event_id = ${alias}.event_id),
      '[]'::jsonb)`;
}

/**
 * The same list as a FROM item, one row per change: `c` the stored change (masked where it
 * comes from the history) and `i` its place in the list. For a statement that takes the
 * changes apart anyway (the audit page builds each as JSON): one pass over them, not two.
 */
export function activityChangeRowsSql(alias: string, schema = 'rm'): string {
  return `jsonb_array_elements(coalesce(${alias}.changes, (SELECT h.changes FROM ${schema}.job_history h WHERE h.event_id = ${alias}.event_id)))
            WITH ORDINALITY AS stored(raw, i)
          CROSS JOIN LATERAL (SELECT CASE WHEN ${alias}.changes IS NULL THEN ${maskedStoredChangeSql('stored.raw', schema)} ELSE stored.raw END AS c) AS shown`;
}
