import { BOARD_STAGES, type Stage } from '@crm/projections/pipeline';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { STAGE_DOTS } from '../constants/stage-styles';

/**
 * The dialog's stage bar: the eight non-canceled stages as steps, any of
 * them can be chosen; a select on narrow screens. Disabled while the job is canceled.
 */
export function StageBar({ value, disabled, onChange }: { value: Stage; disabled: boolean; onChange: (stage: Stage) => void }) {
  const current = BOARD_STAGES.indexOf(value as (typeof BOARD_STAGES)[number]);
  return (
    <>
      <div className="md:hidden">
        <Select value={disabled ? '' : value} onValueChange={(next) => onChange(next as Stage)} disabled={disabled}>
          <SelectTrigger id="entry-stage" aria-label="Stage">
            <SelectValue placeholder={value} />
          </SelectTrigger>
          <SelectContent>
            {BOARD_STAGES.map((stage) => (
              <SelectItem key={stage} value={stage}>
                {stage}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <ol aria-label="Stage" className={cn('hidden gap-1 md:flex', disabled && 'opacity-50')}>
        {BOARD_STAGES.map((stage, index) => {
          const selected = stage === value;
          const done = !disabled && current >= 0 && index < current;
          return (
            <li key={stage} className="flex-1">
              <button
                type="button"
                disabled={disabled}
                aria-pressed={selected}
                onClick={() => onChange(stage)}
                className={cn(
                  'flex h-full w-full flex-col items-center gap-1.5 rounded-md border px-1 py-2 text-center text-xs leading-tight font-medium transition-colors',
                  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed',
                  selected
                    ? 'border-primary bg-primary text-primary-foreground shadow-sm'
                    : done
                      ? 'border-primary/30 bg-primary/10 text-foreground hover:bg-primary/15'
                      : 'bg-background text-muted-foreground hover:bg-accent hover:text-foreground',
                )}
              >
                <span aria-hidden="true" className={cn('size-2 rounded-full', selected ? 'bg-primary-foreground' : STAGE_DOTS[stage])} />
                {stage}
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}
