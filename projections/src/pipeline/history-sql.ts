import type { GlobalPosition } from '../eventstore/port.ts';
import type { LogStatement } from '../runtime/projection.ts';
import { JOB_STREAM_EVENT_TYPES, jobHistoryAction, type JobStreamEvent } from './events.ts';
import { JOB_FIELDS } from './fields.ts';
import { CANCELED_STAGE } from './stages.ts';

/**
 * The `job_history` rows of a job's own events (jobHistoryRow), made by PostgreSQL from the
 * events table in one INSERT … SELECT: a rebuild then neither folds, encodes nor sends them,
 * and PostgreSQL writes them on one core while this process folds the rest on the other.
 * Every column is what jobHistoryRow gives for the event as parseStoredEvent reads it; a test
 * runs every job event type through both and compares the rows (history-sql.test.ts).
 * Repair-order events of a job's stream keep their TypeScript rows (repairOrderHistoryRow).
 */

/** 'JobCreated' → 'created', …: the same words jobHistoryAction gives. */
const ACTIONS = JOB_STREAM_EVENT_TYPES.map((type) => [type, jobHistoryAction({ type } as JobStreamEvent)] as const);

/** The types whose schema carries `revertOf` (the others drop it when parsed). */
const REVERTIBLE = ['JobUpdated', 'JobStageChanged', 'JobRescheduled', 'JobCanceled', 'JobReopened'] as const;

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
const textArray = (values: readonly string[]) => `ARRAY[${values.map(literal).join(', ')}]::text[]`;

/**
 * quoteText(value) of a jsonb value as JavaScript reads it: a number; a decimal string as
 * Number() reads it (blank: 0). Cents are Math.round(dollars × 100) on the same double, so
 * floor(x + 0.5); whole dollars without decimals, others with two. (The patterns say {0,1},
 * not ?: knex reads a question mark as a binding.)
 */
const quoteTextSql = (value: string) => {
  const dollars = `CASE jsonb_typeof(${value})
      WHEN 'number' THEN (${value} #>> '{}')::float8
      WHEN 'string' THEN CASE WHEN (${value} #>> '{}') ~ '^\\s*$' THEN 0::float8
        WHEN (${value} #>> '{}') ~ '^\\s*[+-]{0,1}(\\d+\\.{0,1}\\d*|\\.\\d+)([eE][+-]{0,1}\\d+){0,1}\\s*$' THEN (${value} #>> '{}')::float8 END
      END`;
  // Written out where it is used, not in a subquery: one per row costs more than the arithmetic.
  const cents = `floor((${dollars}) * 100 + 0.5)`;
  return `CASE WHEN ${cents} IS NULL THEN 'NaN'
      WHEN ${cents} = 'Infinity' THEN 'Infinity' WHEN ${cents} = '-Infinity' THEN '-Infinity'
      WHEN ${cents}::numeric % 100 = 0 THEN (${cents}::numeric / 100)::bigint::text
      ELSE (${cents}::numeric / 100)::numeric(40, 2)::text END`;
};

/** jobApiValue(field, value) of a jsonb value: a quote as quoteText ('' when none), no appointment as ''. */
const apiValueSql = (field: string, value: string) => `CASE
    WHEN ${field} = 'quote' THEN ${quoteApiValueSql(value)}
    WHEN ${field} = 'appointment' THEN ${appointmentApiValueSql(value)}
    ELSE ${value} END`;
const quoteApiValueSql = (value: string) => `CASE WHEN ${value} = 'null' THEN '""'::jsonb ELSE to_jsonb(${quoteTextSql(value)}) END`;
const appointmentApiValueSql = (value: string) => `CASE WHEN ${value} = 'null' THEN '""'::jsonb ELSE ${value} END`;

/** apiValueSql of a field known here. */
const fieldApiValueSql = (field: string, value: string) =>
  field === 'quote' ? quoteApiValueSql(value) : field === 'appointment' ? appointmentApiValueSql(value) : value;

/** [field, old, new] as storedFieldChange keeps a whole change. */
const changeSql = (field: string, oldValue: string, newValue: string) =>
  `jsonb_build_array(${field}, ${apiValueSql(field, oldValue)}, ${apiValueSql(field, newValue)})`;

/**
 * A JobCreated's change of `field` as JSON text, null when the field is empty (null or ''):
 * one text per row parsed once is cheaper than an aggregate over the fields.
 */
const createdChangeSql = (field: string) => {
  const value = `(e.data -> ${literal(field)})`;
  return `CASE WHEN ${value} <> 'null' AND ${value} <> '""' THEN '[${JSON.stringify(field)},null,' || (${fieldApiValueSql(field, value)})::text || ']' END`;
};

/** jobEventChanges(event).map(storedFieldChange), per type. */
const CHANGES_SQL = `CASE e.type
  WHEN 'JobCreated' THEN ('[' || concat_ws(',', ${JOB_FIELDS.map(createdChangeSql).join(', ')}) || ']')::jsonb
  WHEN 'JobUpdated' THEN (SELECT coalesce(jsonb_agg(${changeSql("change.item ->> 'field'", "change.item -> 'oldValue'", "change.item -> 'newValue'")} ORDER BY change.at), '[]')
      FROM jsonb_array_elements(e.data -> 'changes') WITH ORDINALITY AS change(item, at))
  WHEN 'JobStageChanged' THEN jsonb_build_array(jsonb_build_array('stage', e.data -> 'from', e.data -> 'to'))
  WHEN 'JobRescheduled' THEN
    CASE WHEN e.data -> 'from' IS DISTINCT FROM e.data -> 'to'
      THEN jsonb_build_array(jsonb_build_array('appointment', ${fieldApiValueSql('appointment', "e.data -> 'from'")}, ${fieldApiValueSql('appointment', "e.data -> 'to'")})) ELSE '[]' END
    || CASE WHEN e.data -> 'fromDuration' IS DISTINCT FROM e.data -> 'toDuration'
      THEN jsonb_build_array(jsonb_build_array('duration', e.data -> 'fromDuration', e.data -> 'toDuration')) ELSE '[]' END
  WHEN 'JobCanceled' THEN jsonb_build_array(jsonb_build_array('stage', e.data -> 'previousStage', to_jsonb(${literal(CANCELED_STAGE)}::text)))
  WHEN 'JobReopened' THEN jsonb_build_array(jsonb_build_array('stage', to_jsonb(${literal(CANCELED_STAGE)}::text), e.data -> 'stage'))
  ELSE '[]' END`;

/** recorded_at as the process reads it (a JavaScript Date: milliseconds, the column keeps microseconds). */
const RECORDED_AT_SQL = `date_trunc('milliseconds', e.recorded_at)`;

/**
 * The statement that writes `schema`.job_history's rows of every job event of the log up to
 * `upTo` (of an instance, not parked: `parked` as positionToString gives them).
 */
export function jobHistoryFromLog(schema: string, upTo: GlobalPosition, parked: readonly string[]): LogStatement {
  const notParked = parked.length > 0 ? `AND (e.tx_id::text || '/' || e.seq::text) <> ALL(?::text[])` : '';
  return {
    table: 'job_history',
    sql: `INSERT INTO ??.job_history (event_id, instance_id, job_id, revision, action, user_display_name, occurred_at,
        recorded_at, changes, actor_id, revert_of)
      SELECT e.event_id, (e.metadata ->> 'instanceId')::uuid, (e.data ->> 'jobId')::uuid, e.revision,
        CASE e.type ${ACTIONS.map(([type, action]) => `WHEN ${literal(type)} THEN ${literal(action)}`).join(' ')} END,
        e.metadata -> 'actor' ->> 'displayName', (e.metadata ->> 'occurredAt')::timestamptz, ${RECORDED_AT_SQL},
        ${CHANGES_SQL},
        e.metadata -> 'actor' ->> 'id',
        CASE WHEN e.type = ANY(${textArray(REVERTIBLE)}) THEN e.data ->> 'revertOf' END
      FROM events e
      WHERE e.type = ANY(${textArray(JOB_STREAM_EVENT_TYPES)})
        AND (e.tx_id, e.seq) <= (?::text::xid8, ?::bigint)
        AND coalesce(e.metadata ->> 'instanceId', '') <> '' ${notParked}`,
    bindings: [schema, upTo.commit.toString(), upTo.prepare.toString(), ...(parked.length > 0 ? [[...parked]] : [])],
  };
}
