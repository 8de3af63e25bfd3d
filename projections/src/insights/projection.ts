import type { StoredDomainEvent } from '../events.ts';
import { applyJobEvent, isJobStreamEvent, type JobStreamEvent } from '../pipeline/events.ts';
import type { JobFields } from '../pipeline/fields.ts';
import type { Projection, ProjectionContext } from '../runtime/projection.ts';

type StoredJobEvent = StoredDomainEvent & JobStreamEvent;

/**
 * The insights read model, from the job events alone: `insight_jobs` (each job's number,
 * name, tech and quote now) and `insight_stage_intervals` (each stay of a job in a stage,
 * entered by one event and left by the next). Times are the events' own (`occurredAt`, the
 * command's clock), so a rebuild from the log gives the very same rows and figures.
 * Guarded by the stream revision: a replayed event changes nothing.
 */
async function applyInsightEvent(event: StoredJobEvent, ctx: ProjectionContext): Promise<void> {
  const instanceId = event.metadata.instanceId;
  if (!instanceId) return;
  const { table } = ctx;
  const jobId = event.data.jobId;
  const at = new Date(event.metadata.occurredAt);
  const row = (await table('insight_jobs').where('job_id', jobId).first()) as
    { job_number: string; name: string; tech: string; quote: string | null; deleted: boolean; revision: number } | undefined;
  if (row && row.revision >= event.revision) return;

  const enter = async (fields: JobFields) => {
    await table('insight_stage_intervals')
      .insert({
        event_id: event.id,
        instance_id: instanceId,
        job_id: jobId,
        stage: fields.stage,
        entered_at: at,
        entered_revision: event.revision,
        tech: fields.tech,
        quote: fields.quote,
      })
      .onConflict('event_id')
      .ignore();
  };
  const leave = () =>
    table('insight_stage_intervals')
      .where({ job_id: jobId })
      .whereNull('left_at')
      .andWhere('entered_revision', '<', event.revision)
      .update({ left_at: at });

  if (event.type === 'JobCreated' || event.type === 'JobRestored') {
    const fields = applyJobEvent(null, event)!;
    await table('insight_jobs')
      .insert({
        job_id: jobId,
        instance_id: instanceId,
        job_number: fields.jobNumber,
        name: fields.name,
        tech: fields.tech,
        quote: fields.quote,
        deleted: false,
        revision: event.revision,
      })
      .onConflict('job_id')
      .merge();
    await enter(fields);
    return;
  }
  if (!row) return;
  const current: JobFields = {
    jobNumber: row.job_number,
    name: row.name,
    tech: row.tech,
    quote: row.quote === null ? null : Number(row.quote),
  } as JobFields;
  switch (event.type) {
    case 'JobUpdated': {
      const next = { ...current } as Record<string, unknown>;
      for (const change of event.data.changes) next[change.field] = change.newValue;
      await table('insight_jobs')
        .where('job_id', jobId)
        .update({ job_number: next.jobNumber, name: next.name, tech: next.tech, quote: next.quote, revision: event.revision });
      return;
    }
    case 'JobStageChanged':
    case 'JobCanceled':
    case 'JobReopened': {
      const to = event.type === 'JobStageChanged' ? event.data.to : event.type === 'JobCanceled' ? 'Canceled' : event.data.stage;
      await leave();
      await enter({ ...current, stage: to });
      await table('insight_jobs').where('job_id', jobId).update({ revision: event.revision });
      return;
    }
    case 'JobDeleted':
      await leave();
      await table('insight_jobs').where('job_id', jobId).update({ deleted: true, revision: event.revision });
      return;
    default:
      await table('insight_jobs').where('job_id', jobId).update({ revision: event.revision });
      return;
  }
}

export const insightsProjection: Projection = {
  name: 'insights',
  eventTypes: ['JobCreated', 'JobUpdated', 'JobStageChanged', 'JobCanceled', 'JobReopened', 'JobDeleted', 'JobRestored'],
  async apply(event, ctx) {
    if (isJobStreamEvent(event)) await applyInsightEvent(event, ctx);
  },
};
