import { displayPhone, formatDateTime } from '@crm/projections/contract';
import { memo } from 'react';
import type { JobView } from '@crm/projections/pipeline';
import { Card } from '@/components/ui/card';
import { CalendarIcon, CarIcon, PhoneIcon } from '@/components/ui/icons';
import { jobLabel } from '../utils/entry-title';
import type { PipelinePermissions } from '../types/pipeline-permissions';
import { InlineStageSelect } from './inline-stage-select';
import { VehicleLink } from './vehicle-link';
import { JobCardFact, JobCardQuote, JobCardTitle } from './job-card-parts';

/** The phone list: one card per job; tapping it opens the edit dialog. */
export const PipelineCards = memo(function PipelineCards({
  instance,
  jobs,
  permissions,
  onEdit,
}: {
  instance: string;
  jobs: JobView[];
  permissions: PipelinePermissions;
  onEdit: (job: JobView) => void;
}) {
  return (
    <ul className="grid gap-3" aria-label="Entries">
      {jobs.map((job) => (
        <li key={job.id}>
          <Card className="relative grid gap-3 p-4 transition-colors hover:bg-muted/30 has-[button.card-open:focus-visible]:ring-2 has-[button.card-open:focus-visible]:ring-ring">
            <div className="flex items-start justify-between gap-3">
              {/* The stage changer sits above the title's card-wide button. */}
              <JobCardTitle job={job} compact={false} openClassName="card-open" onOpen={() => onEdit(job)} />
              <div className="relative z-10 shrink-0">
                <InlineStageSelect
                  instance={instance}
                  jobId={job.id}
                  stage={job.stage}
                  label={jobLabel(job)}
                  disabled={!permissions.canWrite}
                />
              </div>
            </div>
            {job.part ? <p className="text-sm">{job.part}</p> : null}
            <dl className="grid gap-1.5 text-sm text-muted-foreground">
              {job.phone ? (
                <JobCardFact icon={<PhoneIcon />} label="Phone" compact={false} valueClassName="tabular-nums">
                  {displayPhone(job.phone)}
                </JobCardFact>
              ) : null}
              {job.makeModel ? (
                <JobCardFact icon={<CarIcon />} label="Vehicle" compact={false} valueClassName="min-w-0">
                  <VehicleLink instance={instance} job={job} />
                </JobCardFact>
              ) : null}
              {job.appointment ? (
                <JobCardFact icon={<CalendarIcon />} label="Appointment" compact={false}>
                  {formatDateTime(job.appointment)}
                </JobCardFact>
              ) : null}
            </dl>
            <JobCardQuote job={job} compact={false} />
          </Card>
        </li>
      ))}
    </ul>
  );
});
