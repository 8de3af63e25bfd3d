import { type ReactNode, useCallback, useMemo, useState } from 'react';
import type { SlotInfo } from 'react-big-calendar';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useMediaQuery } from '@/lib/use-media-query';
import { useUserChoiceNames as useTechnicians } from '@/lib/api/user-choices';
import { useRescheduleAppointment } from '../api/appointment-api';
import { useCalendar } from '../api/get-calendar';
import { LOADING_CALENDAR } from '../constants/calendar-constants';
import { useCalendarAddress } from '../hooks/use-calendar-address';
import { useSwipeNavigation } from '../hooks/use-swipe-navigation';
import {
  type CalendarEvent,
  monthCellEvents,
  techLanes,
  toCalendarEvent,
  weekSlotEvents,
  WEEK_SLOT_COLUMNS,
  PHONE_WEEK_SLOT_COLUMNS,
} from '../utils/calendar-events';
import { DAY_START_HOUR, durationMinutes, hourOn, keepTimeOfDay, navigateDate, visibleRange } from '../utils/calendar-time';
import { zonedLocalizer } from '../utils/zoned-localizer';
import { AppointmentDialog, type AppointmentTarget, type CustomerFieldProps } from './appointment-dialog';
import { CalendarGrid } from './calendar-grid';
import { CalendarHelp } from './calendar-help';
import { CalendarHeading, CalendarNavigation } from './calendar-toolbar';

/**
 * The calendar screen: month, week and day views on react-big-calendar,
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

  const onTouchStart = useSwipeNavigation(navigate);

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

  return (
    <div className="grid gap-6">
      <CalendarHeading
        count={calendar.data ? count : null}
        timeZone={timeZone}
        canWrite={canWrite}
        view={view}
        onNew={handleNew}
        onView={setView}
      />

      <section
        aria-label="Calendar"
        aria-busy={calendar.isFetching || undefined}
        // Sideways moves belong to the swipe, not to the browser: with only vertical panning
        // (and pinch zoom) left to it, a busy page cannot lose the swipe to a pan it started.
        className="grid touch-pan-y touch-pinch-zoom gap-4 rounded-xl border bg-card p-3 text-card-foreground shadow-sm sm:p-4"
        onTouchStart={onTouchStart}
      >
        <CalendarNavigation
          view={view}
          date={date}
          timeZone={timeZone}
          lanes={lanes}
          dayCount={view === 'day' && calendar.data ? count : null}
          onNavigate={navigate}
          onToggleLanes={() => setLanes((on) => !on)}
        />

        {calendar.isPending ? (
          <Spinner label={LOADING_CALENDAR} className="py-16" />
        ) : calendar.isError && !calendar.data ? (
          <Alert>{errorMessage(calendar.error, 'Failed to load the calendar')}</Alert>
        ) : (
          <CalendarGrid
            localizer={localizer}
            date={date}
            view={view}
            timeZone={timeZone}
            events={shownEvents}
            resources={resources}
            canWrite={canWrite}
            onView={setView}
            onNavigate={setDate}
            onSelectSlot={handleSelectSlot}
            onOpen={openEvent}
            onEventDrop={handleDrop}
            onEventResize={handleResize}
          />
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
