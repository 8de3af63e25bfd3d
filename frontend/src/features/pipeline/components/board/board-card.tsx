import { formatDateTime } from '@crm/projections/contract';
import { type JobView, type Stage, STAGES } from '@crm/projections/pipeline';
import { memo, type KeyboardEvent } from 'react';
import { Card } from '@/components/ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { CalendarIcon, CarIcon } from '@/components/ui/icons';
import { cn } from '@/lib/cn';
import { STAGE_DOTS } from '../../constants/stage-styles';
import { jobLabel } from '../../utils/entry-title';
import { JobCardFact, JobCardQuote, JobCardTitle } from '../job-card-parts';
import { VehicleLink } from '../vehicle-link';
import { neighbourStage } from './board-stages';

export const BOARD_KEYS_HINT_ID = 'board-keys-hint';

/**
 * A job on the stage board. Dragged to another column it moves there; with the keyboard,
 * Alt+← / Alt+→ moves it to the previous or next stage, and its menu offers every stage
 * (the way on a phone, where dragging a card would fight scrolling).
 */
export const BoardCard = memo(function BoardCard({
  instance,
  job,
  stage,
  canWrite,
  pending,
  onEdit,
  onMove,
  onDragStart,
  onDragEnd,
}: {
  instance: string;
  job: JobView;
  /** Where it shows: its stage, or the one it is being moved to. */
  stage: Stage;
  canWrite: boolean;
  pending: boolean;
  onEdit: (job: JobView) => void;
  onMove: (job: JobView, to: Stage, how: 'keyboard' | 'menu') => void;
  onDragStart: (job: JobView) => void;
  onDragEnd: () => void;
}) {
  const label = jobLabel(job);
  const previous = neighbourStage(stage, -1);
  const next = neighbourStage(stage, 1);

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!canWrite || !event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.key === 'ArrowLeft' ? previous : event.key === 'ArrowRight' ? next : null;
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    if (target) onMove(job, target, 'keyboard');
  };

  return (
    <li
      draggable={canWrite && !pending}
      data-job-id={job.id}
      onDragStart={(event) => {
        event.dataTransfer.setData('text/plain', label);
        event.dataTransfer.effectAllowed = 'move';
        onDragStart(job);
      }}
      onDragEnd={onDragEnd}
      className={cn(canWrite && 'cursor-grab active:cursor-grabbing', pending && 'opacity-60')}
    >
      <Card className="relative grid gap-2 p-3 text-sm shadow-sm transition-colors hover:bg-muted/30 has-[button.board-open:focus-visible]:ring-2 has-[button.board-open:focus-visible]:ring-ring">
        <div className="flex items-start justify-between gap-2">
          {/* The menu sits above the title's card-wide button. */}
          <JobCardTitle
            job={job}
            compact
            openClassName="board-open"
            onOpen={() => onEdit(job)}
            onKeyDown={handleKeyDown}
            aria-describedby={canWrite ? BOARD_KEYS_HINT_ID : undefined}
            aria-keyshortcuts={canWrite ? 'Alt+ArrowLeft Alt+ArrowRight' : undefined}
          />
          {canWrite ? (
            <DropdownMenu>
              <DropdownMenuTrigger
                aria-label={`Move ${label}`}
                className="relative z-10 -mt-1 -mr-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              >
                <span aria-hidden="true" className="text-lg leading-none">
                  ⋯
                </span>
              </DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuLabel>Move to stage</DropdownMenuLabel>
                {STAGES.filter((option) => option !== stage).map((option) => (
                  <DropdownMenuItem key={option} onSelect={() => onMove(job, option, 'menu')}>
                    <span aria-hidden="true" className={cn('size-2 rounded-full', STAGE_DOTS[option])} />
                    <span className="flex-1">{option}</span>
                    {option === previous ? <kbd className="text-xs text-muted-foreground">Alt+←</kbd> : null}
                    {option === next ? <kbd className="text-xs text-muted-foreground">Alt+→</kbd> : null}
                  </DropdownMenuItem>
                ))}
              </DropdownMenuContent>
            </DropdownMenu>
          ) : null}
        </div>
        {job.part ? <p>{job.part}</p> : null}
        <dl className="grid gap-1 text-xs text-muted-foreground">
          {job.makeModel ? (
            <JobCardFact icon={<CarIcon />} label="Vehicle" compact valueClassName="min-w-0">
              <VehicleLink instance={instance} job={job} />
            </JobCardFact>
          ) : null}
          {job.appointment ? (
            <JobCardFact icon={<CalendarIcon />} label="Appointment" compact>
              {formatDateTime(job.appointment)}
            </JobCardFact>
          ) : null}
          {job.tech ? (
            <JobCardFact label="Tech" compact valueClassName="min-w-0 text-foreground">
              {job.tech}
            </JobCardFact>
          ) : null}
        </dl>
        <JobCardQuote job={job} compact />
      </Card>
    </li>
  );
});
