import { type Stage, STAGES } from '@crm/projections/domain';
import * as SelectPrimitive from '@radix-ui/react-select';
import { useState } from 'react';
import { ChevronDownIcon } from '@/components/ui/icons';
import { Select, SelectContent, SelectItem } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useChangeJobStage } from '../api/change-job-stage';
import { STAGE_DOTS, STAGE_STYLES } from '../constants/stage-styles';

export const STATUS_UPDATE_FAILED = 'Failed to update status';

/**
 * The table's and cards' stage changer: a pill in the stage's colour offering all nine
 * stages (DECISIONS.md §2). The choice shows at once and is saved with PATCH …/stage; on
 * failure it springs back and a toast says so.
 */
export function InlineStageSelect({
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
          console.error('Stage change failed', error);
          toast({ title: STATUS_UPDATE_FAILED, description: errorMessage(error, 'Error updating status'), variant: 'destructive' });
        },
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <Select value={shown} onValueChange={handleChange} disabled={disabled}>
      <SelectPrimitive.Trigger
        aria-label={`Stage for ${label}`}
        className={cn(
          'inline-flex h-7 max-w-full items-center gap-1 rounded-full border px-2.5 text-xs font-medium whitespace-nowrap transition-colors',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1 focus-visible:ring-offset-background',
          'hover:brightness-95 disabled:cursor-default disabled:hover:brightness-100 dark:hover:brightness-125',
          STAGE_STYLES[shown],
          pending && 'opacity-70',
          className,
        )}
      >
        <SelectPrimitive.Value>{shown}</SelectPrimitive.Value>
        <SelectPrimitive.Icon asChild>
          <ChevronDownIcon className="size-3.5 shrink-0 opacity-70" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectContent className="min-w-44">
        {STAGES.map((option) => (
          <SelectItem key={option} value={option}>
            <span className="flex items-center gap-2">
              <span aria-hidden="true" className={cn('size-2 rounded-full', STAGE_DOTS[option])} />
              {option}
            </span>
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
