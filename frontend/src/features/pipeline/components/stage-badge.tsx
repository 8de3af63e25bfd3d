import type { Stage } from '@crm/projections/pipeline';
import { cn } from '@/lib/cn';
import { STAGE_STYLES } from '../constants/stage-styles';

export function StageBadge({ stage, className }: { stage: Stage; className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap',
        STAGE_STYLES[stage],
        className,
      )}
    >
      {stage}
    </span>
  );
}
