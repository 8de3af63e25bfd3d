/**
 * A job event's change list is kept once, in its `job_history` row (written with the event,
 * unmasked: the job's own history shows the whole phone); its `activity` row holds NULL there
 * (audit/projection.ts, activityRow). These build the SQL that reads an activity row's change
 * list, in the stored compact form, from wherever it is kept, with the timeline's phone mask
 * (shared/phone.ts, maskPhone: the last 4 digits) applied to what comes from the history.
 * Text only: the audit queries and the tests put it in their statements.
 */

/** A jsonb value masked as maskPhone masks a string; any other value as it is. */
export function maskedPhoneSql(value: string): string {
  // [^0-9], not \D: PostgreSQL's \D keeps other scripts' digits, JavaScript's does not.
  const digits = `regexp_replace(${value} #>> '{}', '[^0-9]', '', 'g')`;
  return `CASE WHEN jsonb_typeof(${value}) = 'string'
            THEN to_jsonb(CASE WHEN ${digits} = '' THEN '' ELSE '•••-•••-' || right(${digits}, 4) END)
            ELSE ${value} END`;
}

/**
 * One stored change `c` (jsonb) with a phone's values masked (maskPhoneChange): the compact
 * [field, oldValue, newValue] form or the object form (a value left out stays left out).
 */
export function maskedStoredChangeSql(c: string): string {
  return `CASE WHEN jsonb_typeof(${c}) = 'array' AND ${c} ->> 0 = 'phone'
              THEN jsonb_build_array(${c} -> 0, ${maskedPhoneSql(`(${c} -> 1)`)}, ${maskedPhoneSql(`(${c} -> 2)`)})
            WHEN jsonb_typeof(${c}) = 'object' AND ${c} ->> 'field' = 'phone'
              THEN ${c} || jsonb_strip_nulls(jsonb_build_object(
                     'oldValue', CASE WHEN jsonb_typeof(${c} -> 'oldValue') = 'string' THEN ${maskedPhoneSql(`(${c} -> 'oldValue')`)} END,
                     'newValue', CASE WHEN jsonb_typeof(${c} -> 'newValue') = 'string' THEN ${maskedPhoneSql(`(${c} -> 'newValue')`)} END))
            ELSE ${c} END`;
}

/**
 * The stored change list of the activity row `alias` (jsonb, compact form), as the timeline
 * shows it: its own, or its job_history row's masked; '[]' should neither hold one.
 * `schema` is the read models' schema as the statement names it (e.g. `rm`).
 */
export function activityChangesSql(alias: string, schema = 'rm'): string {
  return `coalesce(${alias}.changes,
      (SELECT coalesce(jsonb_agg(${maskedStoredChangeSql('hc.c')} ORDER BY hc.i), '[]')
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
          CROSS JOIN LATERAL (SELECT CASE WHEN ${alias}.changes IS NULL THEN ${maskedStoredChangeSql('stored.raw')} ELSE stored.raw END AS c) AS shown`;
}
