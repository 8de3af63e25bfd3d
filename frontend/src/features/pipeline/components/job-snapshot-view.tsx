import { displayPhone, formatDateTime, formatDuration } from '@crm/projections/contract';
import { formatQuote, type JobView } from '@crm/projections/pipeline';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useJobAsOf } from '../api/get-job';
import { StageBadge } from './stage-badge';

function rows(job: JobView): Array<[string, ReactNode]> {
  return [
    ['Job Number', job.jobNumber],
    ['Name', job.name],
    ['Phone', displayPhone(job.phone)],
    ['Part', job.part],
    ['Vehicle', job.makeModel],
    ['VIN', job.vin],
    ['Quote', formatQuote(job.quote)],
    ['Stage', <StageBadge key="stage" stage={job.stage} />],
    ['Date Created', formatDateTime(job.createdAt)],
    ['CSR', job.csr],
    ['Job Type', job.jobType],
    ['Appointment', formatDateTime(job.appointment)],
    ['Duration', formatDuration(job.duration)],
    ['Tech', job.tech],
    ['Notes', job.notes],
  ];
}

/** A job's fields, read-only: a past version, or the job for someone who may not change it. */
export function JobFieldList({ job, label }: { job: JobView; label: string }) {
  return (
    <dl aria-label={label} className="grid gap-x-6 gap-y-3 rounded-lg border bg-muted/30 p-4 text-sm sm:grid-cols-2">
      {rows(job).map(([name, value]) => (
        <div key={name} className={name === 'Notes' ? 'grid gap-0.5 sm:col-span-2' : 'grid gap-0.5'}>
          <dt className="text-xs font-medium text-muted-foreground">{name}</dt>
          <dd className="min-h-5 whitespace-pre-wrap">{value || <span className="text-muted-foreground">—</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Time travel: the whole job right after the change with this revision, read-only. */
export function JobSnapshotView({ instance, jobId, revision }: { instance: string; jobId: string; revision: number }) {
  const snapshot = useJobAsOf(instance, jobId, revision);
  if (snapshot.isPending) return <Spinner label="Loading this version..." className="py-6" />;
  if (snapshot.isError) return <Alert>{errorMessage(snapshot.error, 'Failed to load this version')}</Alert>;
  return <JobFieldList job={snapshot.data} label="Entry as it was" />;
}
