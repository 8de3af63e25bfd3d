import type { StoredDomainEvent } from '../events.ts';
import type { ActivityDescription } from '../shared/timeline.ts';
import { jobEventChanges, type JobStreamEvent } from './events.ts';
import { JOB_FIELD_LABELS, type JobFields } from './fields.ts';

/** How the instance timeline (the audit slice's activity) words the pipeline's events. */

/** 'job #12 (Ann Lee)': how words name a job. */
export function jobReference(data: { jobNumber: string; name: string }): string {
  const number = data.jobNumber ? `job #${data.jobNumber}` : 'a job';
  return data.name ? `${number} (${data.name})` : number;
}

/** An ISO time in words, in UTC (the server does not know the reader's zone). */
function when(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function listFields(fields: readonly string[]): string {
  return fields.map((field) => JOB_FIELD_LABELS[field as keyof JobFields] ?? field).join(', ');
}

/** The instance timeline's words for a job event. */
export function describeJobEvent(event: StoredDomainEvent & JobStreamEvent): ActivityDescription {
  const changes = jobEventChanges(event);
  const base = { entityType: 'job', entityId: event.data.jobId, changes };
  switch (event.type) {
    case 'JobCreated':
      return { ...base, summary: `Created ${jobReference(event.data)} in ${event.data.stage}` };
    case 'JobUpdated':
      if (event.data.revertOf)
        return {
          ...base,
          summary: `Reverted a change of ${jobReference(event.data)}: ${listFields(event.data.changes.map((c) => c.field))}`,
        };
      return { ...base, summary: `Updated ${jobReference(event.data)}: ${listFields(event.data.changes.map((c) => c.field))}` };
    case 'JobStageChanged':
      return { ...base, summary: `Moved ${jobReference(event.data)} from ${event.data.from} to ${event.data.to}` };
    case 'JobRescheduled': {
      const { from, to, toDuration } = event.data;
      const job = jobReference(event.data);
      if (from === to) {
        return {
          ...base,
          summary: toDuration === null ? `Cleared the duration of ${job}` : `Changed the duration of ${job} to ${toDuration} minutes`,
        };
      }
      if (to === null) return { ...base, summary: `Removed the appointment of ${job}` };
      return { ...base, summary: `${from === null ? 'Scheduled' : 'Rescheduled'} ${job} for ${when(to)}` };
    }
    case 'JobCanceled':
      return { ...base, summary: `Canceled ${jobReference(event.data)} (it was in ${event.data.previousStage})` };
    case 'JobReopened':
      return { ...base, summary: `Reopened ${jobReference(event.data)} in ${event.data.stage}` };
    case 'JobDeleted':
      return {
        ...base,
        summary:
          event.data.reason === 'customer-deleted'
            ? `Deleted ${jobReference(event.data)} together with its customer`
            : `Deleted ${jobReference(event.data)}`,
      };
    case 'JobRestored':
      return { ...base, summary: `Restored deleted ${jobReference(event.data)}` };
  }
}
