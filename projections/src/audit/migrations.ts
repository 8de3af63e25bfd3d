import { compactChangeListSql, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The audit slice's read-model migrations (its activity table is created by platform's
 * 0001_platform, its audit-log indexes by pipeline's 0004_pipeline). Names are recorded in
 * every database and migrations run ordered by name across all slices (db/migrate.ts):
 * never rename one.
 */

/**
 * The timeline masks every phone now, jobs' as well as customers' (audit/projection.ts); entries
 * projected before that held jobs' phones whole, so they get the same mask here.
 */
interface FieldChange {
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

/** The mask as it was when this migration was written (its last 4 digits): a migration keeps its own copy, so it does the same on every database. */
function maskPhoneChange(change: FieldChange): FieldChange {
  if (change.field !== 'phone') return change;
  const mask = (value: unknown) => {
    if (typeof value !== 'string') return value;
    const digits = value.replace(/\D/g, '');
    return digits ? `•••-•••-${digits.slice(-4)}` : '';
  };
  return { ...change, oldValue: mask(change.oldValue), newValue: mask(change.newValue) };
}

const maskedTimelinePhones: SchemaMigration = {
  name: '0005_activity_masked_phones',
  async up(knex, schema) {
    const rows = (await knex
      .withSchema(schema)
      .from('activity')
      .whereRaw('changes @> ?::jsonb', [JSON.stringify([{ field: 'phone' }])])
      .select('event_id', 'changes')) as Array<{ event_id: string; changes: FieldChange[] }>;
    for (const row of rows) {
      await knex
        .withSchema(schema)
        .table('activity')
        .where('event_id', row.event_id)
        .update({ changes: JSON.stringify(row.changes.map(maskPhoneChange)) });
    }
  },
};

/**
 * A leaner activity table, for the rebuild above all (it builds every index of the table
 * from scratch) and for every event the projector adds. The positions become bigint (the
 * global position's two parts are 64-bit integers): three of the table's B-trees sort on
 * them, and a numeric compares and parses several times slower. The index on
 * (instance_id, entity_type, occurred_at) goes: the audit log filters by entity type in
 * position order, which (instance_id, entity_type, position) serves, and a time range only
 * narrows that scan; nothing orders the timeline by occurred_at.
 */
const leanActivity: SchemaMigration = {
  name: '0076_audit_lean_activity',
  async up(knex, schema) {
    await knex.raw('DROP INDEX IF EXISTS ??.activity_instance_id_entity_type_occurred_at_idx', [schema]);
    await knex.raw('ALTER TABLE ??.activity ALTER COLUMN position_commit TYPE bigint, ALTER COLUMN position_prepare TYPE bigint', [schema]);
  },
};

/**
 * Activity keeps each change with exactly the keys field, oldValue and newValue as the array
 * [field, oldValue, newValue] (audit/api.ts, storedFieldChange): the same rule in SQL for the
 * rows written before, in their order.
 */
const compactChanges: SchemaMigration = {
  name: '0077_audit_compact_changes',
  async up(knex, schema) {
    await knex.raw(
      `UPDATE ??.activity a
          SET changes = ${compactChangeListSql('a.changes')}
        WHERE jsonb_array_length(a.changes) > 0`,
      [schema],
    );
  },
};

/** maskPhone in SQL as it was when 0081 was written, for a jsonb value (a string is masked, anything else kept). */
function maskedPhoneSql0081(value: string): string {
  const digits = `regexp_replace(${value} #>> '{}', '[^0-9]', '', 'g')`;
  return `CASE WHEN jsonb_typeof(${value}) = 'string'
            THEN to_jsonb(CASE WHEN ${digits} = '' THEN '' ELSE '•••-•••-' || right(${digits}, 4) END)
            ELSE ${value} END`;
}

/** A stored change `c` (jsonb) with a phone's values masked, in either stored form: 0081's and 0082's own copy. */
function maskedPhoneChange0081(c: string): string {
  return `CASE WHEN jsonb_typeof(${c}) = 'array' AND ${c} ->> 0 = 'phone'
              THEN jsonb_build_array(${c} -> 0, ${maskedPhoneSql0081(`(${c} -> 1)`)}, ${maskedPhoneSql0081(`(${c} -> 2)`)})
            WHEN jsonb_typeof(${c}) = 'object' AND ${c} ->> 'field' = 'phone'
              THEN ${c} || jsonb_strip_nulls(jsonb_build_object(
                     'oldValue', CASE WHEN jsonb_typeof(${c} -> 'oldValue') = 'string' THEN ${maskedPhoneSql0081(`(${c} -> 'oldValue')`)} END,
                     'newValue', CASE WHEN jsonb_typeof(${c} -> 'newValue') = 'string' THEN ${maskedPhoneSql0081(`(${c} -> 'newValue')`)} END))
            ELSE ${c} END`;
}

/**
 * A job event's change list is kept once, in its job_history row; its activity row holds NULL
 * and the audit queries read the list from the history with the timeline's phone mask
 * (audit/changes-sql.ts). Rows written before lose their list only where the history's,
 * masked, is exactly the same: what the audit log shows does not change. The mask and the
 * job event types are this migration's own copy, so it does the same on every database.
 */
const jobChangesInHistory: SchemaMigration = {
  name: '0081_audit_job_changes_in_history',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.activity ALTER COLUMN changes DROP NOT NULL', [schema]);
    const jobEventTypes = [
      'JobCreated',
      'JobUpdated',
      'JobStageChanged',
      'JobRescheduled',
      'JobCanceled',
      'JobReopened',
      'JobDeleted',
      'JobRestored',
    ];
    const masked = maskedPhoneChange0081('hc.c');
    await knex.raw(
      `UPDATE ??.activity a
          SET changes = NULL
         FROM ??.job_history h
        WHERE h.event_id = a.event_id
          AND a.event_type = ANY(?::text[])
          AND a.changes = (SELECT coalesce(jsonb_agg(${masked} ORDER BY hc.i), '[]')
                             FROM jsonb_array_elements(h.changes) WITH ORDINALITY AS hc(c, i))`,
      [schema, schema, jobEventTypes],
    );
  },
};

/**
 * The timeline's phone mask for one stored change, as a function the audit queries call for a
 * phone's change only (audit/changes-sql.ts). PL/pgSQL, so that the planner does not inline it:
 * written out in the audit page's statement, the expression was most of its planning time.
 * Its body is this file's copy of the mask (as 0081 compares with): a later change of the mask
 * needs a migration of its own to replace the function.
 */
const timelineMaskFunction: SchemaMigration = {
  name: '0082_audit_timeline_mask_function',
  async up(knex, schema) {
    await knex.raw(
      `CREATE OR REPLACE FUNCTION ??.timeline_masked_phone_change(c jsonb) RETURNS jsonb
         LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $body$ BEGIN RETURN ${maskedPhoneChange0081('c')}; END $body$`,
      [schema],
    );
  },
};

export const auditMigrations: SchemaMigration[] = [
  maskedTimelinePhones,
  leanActivity,
  compactChanges,
  jobChangesInHistory,
  timelineMaskFunction,
];
