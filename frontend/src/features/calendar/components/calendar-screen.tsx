import { useCalendarAddress } from '../hooks/use-calendar-address';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Calendar, type SlotInfo } from 'react-big-calendar';
import * as dragAndDropAddon from 'react-big-calendar/lib/addons/dragAndDrop';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import '../calendar.css';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ArrowLeftIcon, PlusIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useMediaQuery } from '@/lib/use-media-query';
import { useRescheduleAppointment } from '../api/appointment-api';
import { useCalendar } from '../api/get-calendar';
import { useUserChoiceNames as useTechnicians } from '@/lib/api/user-choices';
import { LOADING_CALENDAR } from '../constants/calendar-constants';
import {
  type CalendarEvent,
  jobTypeColor,
  monthCellEvents,
  type TechLane,
  techLanes,
  toCalendarEvent,
  weekSlotEvents,
  WEEK_SLOT_COLUMNS,
  PHONE_WEEK_SLOT_COLUMNS,
} from '../utils/calendar-events';
import {
  type CalendarView,
  CALENDAR_VIEWS,
  DAY_END_HOUR,
  DAY_START_HOUR,
  durationMinutes,
  fullDateLabel,
  hourOn,
  keepTimeOfDay,
  monthYearLabel,
  navigateDate,
  STEP_MINUTES,
  swipeAction,
  visibleRange,
} from '../utils/calendar-time';
import { zonedLocalizer } from '../utils/zoned-localizer';
import { AppointmentDialog, type AppointmentTarget, type CustomerFieldProps } from './appointment-dialog';
import { CalendarHelp } from './calendar-help';

type WithDragAndDrop = typeof dragAndDropAddon.default;
/**
 * The addon is CommonJS with `exports.default`: the bundler hands over the module object as
 * the default import, TypeScript and Node the function itself. Take whichever is the function.
 */
const addonDefault = dragAndDropAddon.default as WithDragAndDrop | { default: WithDragAndDrop };
const withDragAndDrop: WithDragAndDrop = typeof addonDefault === 'function' ? addonDefault : addonDefault.default;
const DragAndDropCalendar = withDragAndDrop<CalendarEvent, TechLane>(Calendar);

const VIEW_LABELS: Record<CalendarView, string> = { day: 'Day', week: 'Week', month: 'Month' };

const FORMATS = {
  dateFormat: 'd',
  timeGutterFormat: 'h a',
  dayFormat: 'ccc d',
  weekdayFormat: 'ccc',
  eventTimeRangeFormat: (
    { start, end }: { start: Date; end: Date },
    culture: string | undefined,
    localizer?: { format: (d: Date, f: string, c?: string) => string },
  ) => (localizer ? `${localizer.format(start, 't', culture)} – ${localizer.format(end, 't', culture)}` : ''),
};

/**
 * A day's column heading in the week and day views, as plain text: the library's own puts role="columnheader" on a span with
 * no row or grid around it, which assistive technology cannot place (and axe reports as critical).
 */
function ColumnHeader({ label }: { label: ReactNode }) {
  return <span>{label}</span>;
}

function EventLabel({ event }: { event: CalendarEvent }) {
  // A crowded slot's block in a phone's week column (a seventh of 390 px): its words broke
  // letter by letter, so a narrow block shows the count alone and keeps the words for screen readers.
  if (event.more !== undefined) {
    return (
      <span className="block @container" title={event.title}>
        <span aria-hidden="true" className="block text-center font-semibold @[5rem]:hidden">
          {event.title.startsWith('+') ? `+${event.more}` : event.more}
        </span>
        <span className="sr-only @[5rem]:not-sr-only @[5rem]:block @[5rem]:truncate">{event.title}</span>
      </span>
    );
  }
  return (
    // The key lets the focus find this appointment again when the calendar is drawn anew.
    <span className="block truncate" title={event.title} data-focus-key={event.job ? `appointment-${event.job.id}` : undefined}>
      {event.title}
    </span>
  );
}

/**
 * The calendar (spec "Calendar screen"): month, week and day views on react-big-calendar,
 * in the SHOP's time zone. Clicking an empty day or slot creates, clicking an appointment
 * edits, dragging moves (month keeps the time of day), resizing changes the duration, and
 * the day view can show one lane per technician (dragging between lanes reassigns).
 * Phones: swipe to navigate, tap to edit, the day view first.
 */
export function CalendarScreen({
  instance,
  timeZone,
  currentUserName,
  canWrite,
  renderCustomerField,
  renderHistory,
  onOpenFullEntry,
}: {
  instance: string;
  timeZone: string;
  currentUserName: string;
  canWrite: boolean;
  renderCustomerField: (props: CustomerFieldProps) => ReactNode;
  renderHistory: (jobId: string) => ReactNode;
  onOpenFullEntry: (jobId: string) => void;
}) {
  const phone = useMediaQuery('(max-width: 639px)');
  const { view, setView, date, setDate, lanes, setLanes } = useCalendarAddress(
    timeZone,
    () => window.matchMedia('(max-width: 639px)').matches,
  );
  const [dialog, setDialog] = useState<AppointmentTarget | null>(null);
  const localizer = useMemo(() => zonedLocalizer(timeZone), [timeZone]);
  const range = useMemo(() => visibleRange(view, date, timeZone), [view, date, timeZone]);
  const calendar = useCalendar(instance, range);
  const technicians = useTechnicians(instance);
  const reschedule = useRescheduleAppointment(instance);

  const events = useMemo(() => (calendar.data?.items ?? []).map(toCalendarEvent), [calendar.data]);
  const shownEvents = useMemo(
    () =>
      view === 'month'
        ? monthCellEvents(events, timeZone)
        : view === 'week'
          ? weekSlotEvents(events, timeZone, phone ? PHONE_WEEK_SLOT_COLUMNS : WEEK_SLOT_COLUMNS)
          : events,
    [view, events, timeZone, phone],
  );
  const showLanes = lanes && view === 'day';
  const resources = useMemo(
    () => (showLanes ? techLanes(events, technicians.data ?? []) : undefined),
    [showLanes, events, technicians.data],
  );

  const navigate = useCallback(
    (action: 'PREV' | 'NEXT' | 'TODAY') => setDate((current) => navigateDate(view, current, action, timeZone)),
    [view, timeZone],
  );

  // On this screen a sideways swipe moves the calendar. Without this, Chromium on a touch
  // screen also takes a swipe to the right as the browser's "back" and leaves the page.
  useEffect(() => {
    const root = document.documentElement;
    const before = root.style.overscrollBehaviorX;
    root.style.overscrollBehaviorX = 'none';
    return () => {
      root.style.overscrollBehaviorX = before;
    };
  }, []);

  // Swipe: at least 50 px sideways and more than twice the vertical movement. The end of the
  // touch is heard on the element the finger first touched, not on the section: when that
  // element leaves the page mid-swipe (a loading line replaced by the day's grid), its
  // touchend no longer bubbles up to any ancestor, and the swipe would be lost.
  const navigateLatest = useRef(navigate);
  navigateLatest.current = navigate;
  const onTouchStart = (event: React.TouchEvent) => {
    const first = event.touches[0];
    if (!first || event.touches.length !== 1) return;
    const start = { x: first.clientX, y: first.clientY };
    const target = event.target;
    const finish = (end: Event) => {
      target.removeEventListener('touchend', finish);
      target.removeEventListener('touchcancel', finish);
      const point = end.type === 'touchend' ? (end as TouchEvent).changedTouches[0] : undefined;
      const action = point ? swipeAction(point.clientX - start.x, point.clientY - start.y) : null;
      if (action) navigateLatest.current(action);
    };
    target.addEventListener('touchend', finish);
    target.addEventListener('touchcancel', finish);
  };

  const move = useCallback(
    (event: CalendarEvent, start: Date, duration: number | null, tech?: string) => {
      if (!event.job) return;
      const job = event.job;
      const unchanged = start.getTime() === event.start.getTime() && duration === job.duration && (tech === undefined || tech === job.tech);
      if (unchanged) return;
      reschedule.mutate(
        { job, appointment: start.toISOString(), duration, ...(tech === undefined ? {} : { tech }) },
        {
          onError: (failure) =>
            toast({
              variant: 'destructive',
              title: 'Could not move the appointment',
              description: errorMessage(failure, 'The change was not saved. Check your connection and try again.'),
            }),
        },
      );
    },
    [reschedule],
  );

  const handleDrop = ({ event, start, resourceId }: EventInteractionArgs<CalendarEvent>) => {
    const dropped = new Date(start);
    const target = view === 'month' ? keepTimeOfDay(event.start, dropped, timeZone) : dropped;
    const tech = showLanes && resourceId !== undefined ? String(resourceId) : undefined;
    move(event, target, event.job?.duration ?? null, tech);
  };

  const handleResize = ({ event, start, end }: EventInteractionArgs<CalendarEvent>) => {
    const from = new Date(start);
    move(event, from, durationMinutes(from, new Date(end)));
  };

  const handleSelectSlot = (slot: SlotInfo) => {
    if (!canWrite) return;
    // A day of the month view opens at the start of the working day; a slot at its own time.
    const start = view === 'month' ? hourOn(slot.start, DAY_START_HOUR, timeZone) : slot.start;
    const tech = showLanes && slot.resourceId !== undefined ? String(slot.resourceId) : undefined;
    setDialog({ kind: 'new', start, ...(tech ? { tech } : {}) });
  };

  // The keyboard's way to add one: the shown day at the start of the working day (the dialog
  // takes any other time).
  const handleNew = () => setDialog({ kind: 'new', start: hourOn(date, DAY_START_HOUR, timeZone) });

  const openEvent = (event: CalendarEvent) => {
    // '+N more' (a month cell's, or a crowded slot of the week) opens that day.
    if (!event.job) {
      setDate(event.start);
      setView('day');
      return;
    }
    setDialog({ kind: 'edit', jobId: event.id });
  };

  const count = events.length;
  const dayCount = view === 'day' ? count : null;

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Calendar</h1>
          <p className="text-muted-foreground" aria-live="polite">
            {calendar.data ? `${count} scheduled ${count === 1 ? 'job' : 'jobs'}` : '\u00a0'}
            <span className="ml-2 text-xs">Times in {timeZone}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2 self-start sm:self-auto">
          {canWrite ? (
            <Button size="sm" onClick={handleNew}>
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
                onClick={() => setView(option)}
              >
                {VIEW_LABELS[option]}
              </Button>
            ))}
          </div>
        </div>
      </div>

      <section
        aria-label="Calendar"
        aria-busy={calendar.isFetching || undefined}
        // Sideways moves belong to the swipe, not to the browser: with only vertical panning
        // (and pinch zoom) left to it, a busy page cannot lose the swipe to a pan it started.
        className="grid touch-pan-y touch-pinch-zoom gap-4 rounded-xl border bg-card p-3 text-card-foreground shadow-sm sm:p-4"
        onTouchStart={onTouchStart}
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="flex items-center gap-2">
            <Button variant="outline" size="icon" aria-label="Previous" onClick={() => navigate('PREV')}>
              <ArrowLeftIcon />
            </Button>
            <Button variant="outline" size="sm" onClick={() => navigate('TODAY')}>
              Today
            </Button>
            <Button variant="outline" size="icon" aria-label="Next" onClick={() => navigate('NEXT')}>
              <ArrowLeftIcon className="rotate-180" />
            </Button>
          </div>
          <h2 className="text-lg font-semibold" data-testid="calendar-label">
            {monthYearLabel(view, date, timeZone)}
          </h2>
          {view === 'day' ? (
            <Button variant={lanes ? 'secondary' : 'outline'} size="sm" aria-pressed={lanes} onClick={() => setLanes((on) => !on)}>
              Technician lanes
            </Button>
          ) : (
            <span className="hidden sm:block sm:w-32" />
          )}
        </div>
        {view === 'day' ? (
          <p className="-mt-2 text-sm text-muted-foreground">
            <span className="font-medium text-foreground">{fullDateLabel(date, timeZone)}</span>
            {dayCount !== null && calendar.data ? ` · ${dayCount} ${dayCount === 1 ? 'appointment' : 'appointments'}` : null}
          </p>
        ) : null}

        {calendar.isPending ? (
          <Spinner label={LOADING_CALENDAR} className="py-16" />
        ) : calendar.isError && !calendar.data ? (
          <Alert>{errorMessage(calendar.error, 'Failed to load the calendar')}</Alert>
        ) : (
          <div className={cn('crm-calendar', `crm-calendar--${view}`, showLanes && 'crm-calendar--lanes')}>
            <DragAndDropCalendar
              localizer={localizer}
              date={date}
              view={view}
              views={['month', 'week', 'day']}
              onView={(next) => setView(next as CalendarView)}
              onNavigate={(next) => setDate(next)}
              toolbar={false}
              events={shownEvents}
              {...(resources
                ? { resources, resourceIdAccessor: (lane: TechLane) => lane.id, resourceTitleAccessor: (lane: TechLane) => lane.title }
                : {})}
              resourceAccessor={(event: CalendarEvent) => event.resourceId}
              min={hourOn(date, DAY_START_HOUR, timeZone)}
              max={hourOn(date, DAY_END_HOUR, timeZone)}
              step={STEP_MINUTES}
              timeslots={60 / STEP_MINUTES}
              formats={FORMATS as never}
              popup
              selectable={canWrite}
              longPressThreshold={250}
              onSelectSlot={handleSelectSlot}
              onSelectEvent={openEvent}
              // An appointment takes the focus with Tab; Enter or Space opens it, as a click does.
              onKeyPressEvent={(event, press) => {
                // The library types the event loosely; it is a keydown.
                const { key } = press as unknown as React.KeyboardEvent;
                if (key !== 'Enter' && key !== ' ') return;
                press.preventDefault();
                openEvent(event);
              }}
              draggableAccessor={(event) => canWrite && event.job !== null}
              resizableAccessor={(event) => canWrite && event.job !== null && view !== 'month'}
              onEventDrop={handleDrop}
              onEventResize={handleResize}
              eventPropGetter={(event) => ({
                className: event.job ? `crm-event crm-event--${jobTypeColor(event.job.jobType)}` : 'crm-event crm-event--more',
              })}
              components={{ event: EventLabel, week: { header: ColumnHeader }, day: { header: ColumnHeader } }}
              showMultiDayTimes
              dayLayoutAlgorithm="no-overlap"
            />
          </div>
        )}
      </section>

      <CalendarHelp phone={phone} canWrite={canWrite} />

      {dialog ? (
        <AppointmentDialog
          key={dialog.kind === 'edit' ? dialog.jobId : `new-${dialog.start.getTime()}`}
          instance={instance}
          zone={timeZone}
          target={dialog}
          currentUserName={currentUserName}
          canWrite={canWrite}
          renderCustomerField={renderCustomerField}
          renderHistory={renderHistory}
          onOpenFullEntry={(jobId) => {
            setDialog(null);
            onOpenFullEntry(jobId);
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </div>
  );
}
