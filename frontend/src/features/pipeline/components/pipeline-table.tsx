import { balanceWords, displayPhone, formatDateTime, formatMoney } from '@crm/projections/contract';
import { memo } from 'react';
import { formatQuote, type JobView } from '@crm/projections/pipeline';
import { Button } from '@/components/ui/button';
import { PencilIcon, TrashIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { jobLabel } from '../utils/entry-title';
import { jobMoney } from '../utils/job-money';
import type { PipelinePermissions } from '../types/pipeline-permissions';
import { VehicleLink } from './vehicle-link';
import { InlineStageSelect } from './inline-stage-select';

const COLUMNS = ['Job #', 'Name', 'Phone', 'Part', 'Vehicle', 'Quote', 'Balance', 'Stage', 'Appointment', 'Actions'] as const;
const NUMERIC_COLUMNS: readonly string[] = ['Quote', 'Balance', 'Actions'];

/** The quote (an itemized job's total) and the balance due once something is invoiced or paid. */
function JobMoneyCells({ job }: { job: JobView }) {
  const money = jobMoney(job);
  return (
    <>
      <td className="px-3 py-2.5 text-right whitespace-nowrap tabular-nums">
        {money.itemized ? formatMoney(money.total) : formatQuote(job.quote)}
      </td>
      <td className={cn('px-3 py-2.5 text-right whitespace-nowrap tabular-nums', money.balance > 0 && 'font-medium text-destructive')}>
        {money.showBalance ? (
          money.balance === 0 ? (
            'Paid'
          ) : money.balance < 0 ? (
            balanceWords(money.balance).text
          ) : (
            formatMoney(money.balance)
          )
        ) : (
          <span className="text-muted-foreground">—</span>
        )}
      </td>
    </>
  );
}

/** 'Dec 1, 2026, 2:00 PM' allowed to break only between the date and the time. */
function DateThenTime({ text }: { text: string }) {
  const at = text.lastIndexOf(', ');
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at + 2)}
      <span className="whitespace-nowrap">{text.slice(at + 2)}</span>
    </>
  );
}

/** The desktop list: one row per job, the stage changeable in place. */
export const PipelineTable = memo(function PipelineTable({
  instance,
  jobs,
  permissions,
  onEdit,
  onDelete,
}: {
  instance: string;
  jobs: JobView[];
  permissions: PipelinePermissions;
  onEdit: (job: JobView) => void;
  onDelete: (job: JobView) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border bg-card shadow-sm">
      <table className="w-full text-sm">
        <thead>
          <tr className="border-b bg-muted/50 text-left text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={NUMERIC_COLUMNS.includes(column) ? 'px-3 py-3 text-right' : 'px-3 py-3'}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id} className="border-b align-middle last:border-0 hover:bg-muted/30">
              <td className="px-3 py-2.5 font-mono text-xs whitespace-nowrap text-muted-foreground">{job.jobNumber}</td>
              <th scope="row" className="max-w-48 px-3 py-2.5 text-left font-medium">
                <span className="line-clamp-2">{job.name || <span className="text-muted-foreground">—</span>}</span>
              </th>
              <td className="px-3 py-2.5 whitespace-nowrap tabular-nums">{displayPhone(job.phone)}</td>
              {/* At least 7rem each, up to three lines: at 1366 px the other columns squeezed a part or vehicle to 'Front brak…'. */}
              <td className="max-w-40 min-w-28 px-3 py-2.5">
                <span className="line-clamp-3" title={job.part || undefined}>
                  {job.part}
                </span>
              </td>
              <td className="max-w-40 min-w-28 px-3 py-2.5">
                <span className="line-clamp-3" title={job.makeModel || undefined}>
                  <VehicleLink instance={instance} job={job} />
                </span>
              </td>
              <JobMoneyCells job={job} />
              <td className="px-3 py-2.5">
                <InlineStageSelect
                  instance={instance}
                  jobId={job.id}
                  stage={job.stage}
                  label={jobLabel(job)}
                  disabled={!permissions.canWrite}
                />
              </td>
              {/* The date and the time may take two lines, leaving the room to the part and the vehicle; the time keeps its AM/PM. */}
              <td className="min-w-24 px-3 py-2.5 text-xs text-muted-foreground">
                <DateThenTime text={formatDateTime(job.appointment)} />
              </td>
              <td className="px-3 py-2.5">
                <div className="flex justify-end gap-1">
                  {/* A reader opens the job to read it: no pencil promising an edit the server refuses. */}
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => onEdit(job)}
                    aria-label={`${permissions.canWrite ? 'Edit' : 'View'} ${jobLabel(job)}`}
                    title={permissions.canWrite ? 'Edit' : undefined}
                  >
                    {permissions.canWrite ? <PencilIcon /> : null}
                    {/* Below 1536 px the pencil alone (named by its label and tooltip), for the part and vehicle to have the room. */}
                    <span className={permissions.canWrite ? 'hidden 2xl:inline' : undefined}>{permissions.canWrite ? 'Edit' : 'View'}</span>
                  </Button>
                  {permissions.canDelete ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                      onClick={() => onDelete(job)}
                      aria-label={`Delete ${jobLabel(job)}`}
                      title="Delete"
                    >
                      <TrashIcon />
                      <span className="hidden 2xl:inline">Delete</span>
                    </Button>
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
