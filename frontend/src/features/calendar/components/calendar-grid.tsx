import type { ReactNode } from 'react';
import { Calendar, type DateLocalizer, type HeaderProps, type SlotInfo } from 'react-big-calendar';
import * as dragAndDropAddon from 'react-big-calendar/lib/addons/dragAndDrop';
import type { EventInteractionArgs } from 'react-big-calendar/lib/addons/dragAndDrop';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import 'react-big-calendar/lib/addons/dragAndDrop/styles.css';
import '../calendar.css';
import { cn } from '@/lib/cn';
import { type CalendarEvent, initialsOf, isShortAppointment, jobTypeColor, type TechLane } from '../utils/calendar-events';
import { type CalendarView, DAY_END_HOUR, DAY_START_HOUR, hourOn, STEP_MINUTES } from '../utils/calendar-time';

type WithDragAndDrop = typeof dragAndDropAddon.default;
/**
 * The addon is CommonJS with `exports.default`: the bundler hands over the module object as
 * the default import, TypeScript and Node the function itself. Take whichever is the function.
 */
const addonDefault = dragAndDropAddon.default as WithDragAndDrop | { default: WithDragAndDrop };
const withDragAndDrop: WithDragAndDrop = typeof addonDefault === 'function' ? addonDefault : addonDefault.default;
const DragAndDropCalendar = withDragAndDrop<CalendarEvent, TechLane>(Calendar);

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

/**
 * A week's day heading: the weekday and the date, which a phone's seventh of the width
 * (about 40 px) stacks on two lines ('Mon' over '30') instead of clipping 'Mon 30'.
 */
function WeekColumnHeader({ date, localizer }: HeaderProps) {
  return (
    <span className="crm-week-head">
      <span>{localizer.format(date, FORMATS.weekdayFormat)}</span> <span>{localizer.format(date, FORMATS.dateFormat)}</span>
    </span>
  );
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
    // Narrower than 36 px (a phone's week column) the words broke letter by letter ('Ale x Smi th'):
    // there the block shows the customer's initials, and keeps the words for its tooltip and screen readers.
    <span className="block @container" title={event.title} data-focus-key={event.job ? `appointment-${event.job.id}` : undefined}>
      <span aria-hidden="true" className="block text-center font-semibold @[2.25rem]:hidden" data-initials>
        {initialsOf(event.job?.name || event.title)}
      </span>
      <span className="crm-event-words sr-only @[2.25rem]:not-sr-only @[2.25rem]:block @[2.25rem]:truncate">{event.title}</span>
    </span>
  );
}

/**
 * The calendar itself (react-big-calendar with drag and drop): the view's appointments in
 * the shop's zone, one lane per technician when `resources` are given; moving, resizing,
 * selecting a slot and opening an appointment are the screen's to handle.
 */
export function CalendarGrid({
  localizer,
  date,
  view,
  timeZone,
  events,
  resources,
  canWrite,
  onView,
  onNavigate,
  onSelectSlot,
  onOpen,
  onEventDrop,
  onEventResize,
}: {
  localizer: DateLocalizer;
  date: Date;
  view: CalendarView;
  timeZone: string;
  events: CalendarEvent[];
  resources: TechLane[] | undefined;
  canWrite: boolean;
  onView: (view: CalendarView) => void;
  onNavigate: (date: Date) => void;
  onSelectSlot: (slot: SlotInfo) => void;
  onOpen: (event: CalendarEvent) => void;
  onEventDrop: (args: EventInteractionArgs<CalendarEvent>) => void;
  onEventResize: (args: EventInteractionArgs<CalendarEvent>) => void;
}) {
  return (
    <div className={cn('crm-calendar', `crm-calendar--${view}`, resources && 'crm-calendar--lanes')}>
      <DragAndDropCalendar
        localizer={localizer}
        date={date}
        view={view}
        views={['month', 'week', 'day']}
        onView={(next) => onView(next as CalendarView)}
        onNavigate={(next) => onNavigate(next)}
        toolbar={false}
        events={events}
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
        onSelectSlot={onSelectSlot}
        onSelectEvent={onOpen}
        // An appointment takes the focus with Tab; Enter or Space opens it, as a click does.
        onKeyPressEvent={(event, press) => {
          // The library types the event loosely; it is a keydown.
          const { key } = press as unknown as React.KeyboardEvent;
          if (key !== 'Enter' && key !== ' ') return;
          press.preventDefault();
          onOpen(event);
        }}
        draggableAccessor={(event) => canWrite && event.job !== null}
        resizableAccessor={(event) => canWrite && event.job !== null && view !== 'month'}
        onEventDrop={onEventDrop}
        onEventResize={onEventResize}
        eventPropGetter={(event) => ({
          className: cn(
            event.job ? `crm-event crm-event--${jobTypeColor(event.job.jobType)}` : 'crm-event crm-event--more',
            event.job && isShortAppointment(event) && 'crm-event--short',
          ),
        })}
        components={{ event: EventLabel, week: { header: WeekColumnHeader }, day: { header: ColumnHeader } }}
        showMultiDayTimes
        dayLayoutAlgorithm="no-overlap"
      />
    </div>
  );
}
