import { type Stage, STAGES } from '@crm/projections/pipeline';
import { memo, useState } from 'react';
import { ChevronDownIcon } from '@/components/ui/icons';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useChangeJobStage } from '../api/change-job-stage';
import { STAGE_STYLES } from '../constants/stage-styles';

export const STATUS_UPDATE_FAILED = 'Failed to update status';

/**
 * The table's and cards' stage changer: a pill in the stage's colour offering all nine
 * stages. The choice shows at once and is saved with PATCH …/stage; on
 * failure it springs back and a toast says so. A native select: one per row, so it must be
 * cheap (a popover component per row made a 200-row list take seconds), and phones get
 * their own picker.
 */
export const InlineStageSelect = memo(function InlineStageSelect({
  instance,
  jobId,
  stage,
  label,
  disabled = false,
  className,
}: {
  instance: string;
  jobId: string;
  stage: Stage;
  /** Names the job for assistive tech: "Stage for {label}". */
  label: string;
  /** Without write permission the stage is shown, not changeable. */
  disabled?: boolean;
  className?: string;
}) {
  const changeStage = useChangeJobStage(instance);
  const [pending, setPending] = useState<Stage | null>(null);
  const shown = pending ?? stage;

  const handleChange = (next: string) => {
    const nextStage = next as Stage;
    if (nextStage === stage) return;
    setPending(nextStage);
    changeStage.mutate(
      { jobId, stage: nextStage },
      {
        onError: (error) => {
          toast({ title: STATUS_UPDATE_FAILED, description: errorMessage(error, 'Error updating status'), variant: 'destructive' });
        },
        onSettled: () => setPending(null),
      },
    );
  };

  // Someone who may not change the stage reads it: a plain label, not a control that looks usable.
  if (disabled) {
    return (
      <span
        aria-label={`Stage for ${label}: ${stage}`}
        className={cn(
          'inline-flex h-7 max-w-full items-center rounded-full border px-2.5 text-xs font-medium whitespace-nowrap',
          STAGE_STYLES[stage],
          className,
        )}
      >
        {stage}
      </span>
    );
  }

  return (
    <span className={cn('relative inline-flex max-w-full', className)}>
      <select
        aria-label={`Stage for ${label}`}
        value={shown}
        disabled={disabled}
        onChange={(event) => handleChange(event.target.value)}
        className={cn(
          'h-7 max-w-full cursor-pointer appearance-none rounded-full border py-0 pr-7 pl-2.5 text-xs font-medium whitespace-nowrap transition-colors',
          'focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background focus-visible:outline-none',
          'hover:brightness-95 disabled:cursor-default disabled:opacity-100 disabled:hover:brightness-100 dark:hover:brightness-125',
          STAGE_STYLES[shown],
          pending && 'opacity-70',
        )}
      >
        {STAGES.map((option) => (
          <option key={option} value={option} className="bg-background text-foreground">
            {option}
          </option>
        ))}
      </select>
      <ChevronDownIcon aria-hidden="true" className="pointer-events-none absolute top-1/2 right-2 size-3.5 -translate-y-1/2 opacity-70" />
    </span>
  );
});
