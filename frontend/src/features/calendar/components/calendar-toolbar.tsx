import { Button } from '@/components/ui/button';
import { ArrowLeftIcon, PlusIcon } from '@/components/ui/icons';
import { type CalendarView, CALENDAR_VIEWS, fullDateLabel, monthYearLabel } from '../utils/calendar-time';

const VIEW_LABELS: Record<CalendarView, string> = { day: 'Day', week: 'Week', month: 'Month' };

/** The screen's heading: how many appointments are shown (null while loading), New Appointment, the view switch. */
export function CalendarHeading({
  count,
  timeZone,
  canWrite,
  view,
  onNew,
  onView,
}: {
  count: number | null;
  timeZone: string;
  canWrite: boolean;
  view: CalendarView;
  onNew: () => void;
  onView: (view: CalendarView) => void;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Calendar</h1>
        <p className="text-muted-foreground" aria-live="polite">
          {count !== null ? `${count} scheduled ${count === 1 ? 'job' : 'jobs'}` : '\u00a0'}
          <span className="ml-2 text-xs">Times in {timeZone}</span>
        </p>
      </div>
      <div className="flex flex-wrap items-center gap-2 self-start sm:self-auto">
        {canWrite ? (
          <Button size="sm" onClick={onNew}>
            <PlusIcon aria-hidden="true" />
            New Appointment
          </Button>
        ) : null}
        <div role="group" aria-label="View" className="inline-flex rounded-lg border bg-card p-1">
          {CALENDAR_VIEWS.map((option) => (
            <Button
              key={option}
              size="sm"
              variant={view === option ? 'primary' : 'ghost'}
              aria-pressed={view === option}
              onClick={() => onView(option)}
            >
              {VIEW_LABELS[option]}
            </Button>
          ))}
        </div>
      </div>
    </div>
  );
}

/** Previous, Today and Next, what is shown, the day view's technician lanes, and the day's count (null while loading). */
export function CalendarNavigation({
  view,
  date,
  timeZone,
  lanes,
  dayCount,
  onNavigate,
  onToggleLanes,
}: {
  view: CalendarView;
  date: Date;
  timeZone: string;
  lanes: boolean;
  dayCount: number | null;
  onNavigate: (action: 'PREV' | 'NEXT' | 'TODAY') => void;
  onToggleLanes: () => void;
}) {
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="outline" size="icon" aria-label="Previous" onClick={() => onNavigate('PREV')}>
            <ArrowLeftIcon />
          </Button>
          <Button variant="outline" size="sm" onClick={() => onNavigate('TODAY')}>
            Today
          </Button>
          <Button variant="outline" size="icon" aria-label="Next" onClick={() => onNavigate('NEXT')}>
            <ArrowLeftIcon className="rotate-180" />
          </Button>
        </div>
        <h2 className="text-lg font-semibold" data-testid="calendar-label">
          {monthYearLabel(view, date, timeZone)}
        </h2>
        {view === 'day' ? (
          <Button variant={lanes ? 'secondary' : 'outline'} size="sm" aria-pressed={lanes} onClick={onToggleLanes}>
            Technician lanes
          </Button>
        ) : (
          <span className="hidden sm:block sm:w-32" />
        )}
      </div>
      {view === 'day' ? (
        <p className="-mt-2 text-sm text-muted-foreground">
          <span className="font-medium text-foreground">{fullDateLabel(date, timeZone)}</span>
          {dayCount !== null ? ` · ${dayCount} ${dayCount === 1 ? 'appointment' : 'appointments'}` : null}
        </p>
      ) : null}
    </>
  );
}
