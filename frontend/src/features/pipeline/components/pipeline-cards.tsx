import { displayPhone, formatDateTime } from '@crm/projections/contract';
import { memo } from 'react';
import { formatQuote, type JobView } from '@crm/projections/pipeline';
import { Card } from '@/components/ui/card';
import { CalendarIcon, CarIcon, PhoneIcon } from '@/components/ui/icons';
import { jobLabel } from '../utils/entry-title';
import type { PipelinePermissions } from '../types/pipeline-permissions';
import { InlineStageSelect } from './inline-stage-select';

/** The phone list (spec §2): one card per job; tapping it opens the edit dialog. */
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
              <div className="grid min-w-0 gap-0.5">
                {job.jobNumber ? <span className="font-mono text-xs text-muted-foreground">#{job.jobNumber}</span> : null}
                <h3 className="text-base leading-tight font-semibold break-words">
                  {/* The whole card is this button's hit area; the stage changer sits above it. */}
                  <button
                    type="button"
                    className="card-open text-left outline-none after:absolute after:inset-0 after:rounded-xl"
                    onClick={() => onEdit(job)}
                  >
                    {jobLabel(job)}
                  </button>
                </h3>
              </div>
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
            {job.part ? <p className="text-sm break-words">{job.part}</p> : null}
            <dl className="grid gap-1.5 text-sm text-muted-foreground">
              {job.phone ? (
                <div className="flex items-center gap-2">
                  <dt className="[&_svg]:size-4">
                    <PhoneIcon />
                    <span className="sr-only">Phone</span>
                  </dt>
                  <dd className="tabular-nums">{displayPhone(job.phone)}</dd>
                </div>
              ) : null}
              {job.makeModel ? (
                <div className="flex items-center gap-2">
                  <dt className="[&_svg]:size-4">
                    <CarIcon />
                    <span className="sr-only">Vehicle</span>
                  </dt>
                  <dd className="min-w-0 break-words">{job.makeModel}</dd>
                </div>
              ) : null}
              {job.appointment ? (
                <div className="flex items-center gap-2">
                  <dt className="[&_svg]:size-4">
                    <CalendarIcon />
                    <span className="sr-only">Appointment</span>
                  </dt>
                  <dd>{formatDateTime(job.appointment)}</dd>
                </div>
              ) : null}
            </dl>
            <div className="flex items-center justify-between border-t pt-2 text-sm">
              <span className="text-muted-foreground">Quote</span>
              <span className="font-semibold tabular-nums">{formatQuote(job.quote)}</span>
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
});
