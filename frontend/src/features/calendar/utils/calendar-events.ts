import type { AppointmentView } from '@crm/projections/pipeline';
import { normalizeJobType } from '@crm/projections/pipeline';
import { DateTime } from 'luxon';

/** An appointment as react-big-calendar draws it. */
export interface CalendarEvent {
  id: string;
  /** 'name - part'; what is missing is left out. */
  title: string;
  start: Date;
  end: Date;
  /** The technician's lane ('' for Unassigned). */
  resourceId: string;
  /** The appointment; null for a month cell's '+N more' line. */
  job: AppointmentView | null;
  /** On a '+N more' line: how many appointments of that day it stands for. */
  more?: number;
}

/** A month cell shows this many appointments, then '+N more'. */
export const MONTH_CELL_EVENTS = 2;

/**
 * The month view's events: per day (in the zone), the first two appointments by start, and
 * for the rest one '+N more' line that sorts after them (it sits at the day's last minute).
 */
export function monthCellEvents(events: readonly CalendarEvent[], zone: string): CalendarEvent[] {
  const byDay = new Map<string, CalendarEvent[]>();
  for (const event of [...events].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const day = DateTime.fromJSDate(event.start, { zone }).toISODate()!;
    byDay.set(day, [...(byDay.get(day) ?? []), event]);
  }
  const shown: CalendarEvent[] = [];
  for (const [day, dayEvents] of byDay) {
    shown.push(...dayEvents.slice(0, MONTH_CELL_EVENTS));
    const hidden = dayEvents.length - MONTH_CELL_EVENTS;
    if (hidden <= 0) continue;
    const end = DateTime.fromISO(day, { zone }).endOf('day');
    shown.push({
      id: `more-${day}`,
      title: `+${hidden} more`,
      start: end.minus({ minutes: 1 }).toJSDate(),
      end: end.toJSDate(),
      resourceId: '',
      job: null,
      more: hidden,
    });
  }
  return shown;
}

/** The legend's colour families: mobile blue, in-shop green, pickup orange, delivery purple, others grey. */
export type JobTypeColor = 'mobile' | 'in-shop' | 'pickup' | 'delivery' | 'other';

export const JOB_TYPE_LEGEND: ReadonlyArray<{ color: JobTypeColor; label: string }> = [
  { color: 'mobile', label: 'Mobile' },
  { color: 'in-shop', label: 'In Shop' },
  { color: 'pickup', label: 'Pickup' },
  { color: 'delivery', label: 'Delivery' },
  { color: 'other', label: 'Other' },
];

/** A job without a type is an in-shop job on the calendar. */
export function jobTypeColor(jobType: string): JobTypeColor {
  if (!jobType.trim()) return 'in-shop';
  const colors: Partial<Record<string, JobTypeColor>> = { Mobile: 'mobile', 'In Shop': 'in-shop', Pickup: 'pickup', Delivery: 'delivery' };
  return colors[normalizeJobType(jobType) ?? ''] ?? 'other';
}

/**
 * Whether an appointment's block in the week or day view is too low for its time range over its
 * title (under an hour: a 30-minute one is 32 px high), so the two share a line, or the time goes.
 */
export function isShortAppointment(event: Pick<CalendarEvent, 'start' | 'end'>): boolean {
  return event.end.getTime() - event.start.getTime() < 60 * 60_000;
}

export function eventTitle(job: Pick<AppointmentView, 'name' | 'part'>): string {
  const parts = [job.name.trim(), job.part.trim()].filter(Boolean);
  return parts.length > 0 ? parts.join(' - ') : 'Appointment';
}

export function toCalendarEvent(job: AppointmentView): CalendarEvent {
  return {
    id: job.id,
    title: eventTitle(job),
    start: new Date(job.appointment),
    end: new Date(job.appointmentEnd),
    resourceId: job.tech,
    job,
  };
}

/** A technician's lane in the day view. */
export interface TechLane {
  id: string;
  title: string;
}

export const UNASSIGNED_LANE: TechLane = { id: '', title: 'Unassigned' };

/**
 * The day view's lanes: Unassigned, then every user who can take the work (the Tech choices,
 * booked that day or not, so a job can be dragged to a free technician), then any other
 * technician named on that day's jobs (a name no such user has any more), A-Z.
 */
export function techLanes(dayEvents: readonly CalendarEvent[], technicians: readonly string[]): TechLane[] {
  const onJobs = new Set(dayEvents.map((event) => event.resourceId).filter((tech) => tech !== ''));
  const others = [...onJobs].filter((tech) => !technicians.includes(tech));
  const byName = (a: string, b: string) => a.localeCompare(b);
  const users = [...new Set(technicians.filter((name) => name.trim() !== ''))];
  return [UNASSIGNED_LANE, ...users.sort(byName).map(lane), ...others.sort(byName).map(lane)];
}

const lane = (name: string): TechLane => ({ id: name, title: name });

/** The week view draws at most this many appointments side by side; a narrower column is unreadable at 1366 px. */
export const WEEK_SLOT_COLUMNS = 2;
/** On a phone a week's day is a seventh of 390 px: one block per time, or names break letter by letter. */
export const PHONE_WEEK_SLOT_COLUMNS = 1;

/**
 * The week view's events: appointments of a day that overlap (directly or through each
 * other) form a group; a group that would need more than `columns` columns shows its first
 * appointment and one '+N more' block for the rest (with one column, one 'N appointments' block), which opens that day (wide enough to
 * read them all, and in lanes per technician).
 */
export function weekSlotEvents(events: readonly CalendarEvent[], zone: string, columns = WEEK_SLOT_COLUMNS): CalendarEvent[] {
  const sorted = [...events].sort(
    (a, b) => a.start.getTime() - b.start.getTime() || b.end.getTime() - a.end.getTime() || a.title.localeCompare(b.title),
  );
  const groups: CalendarEvent[][] = [];
  let groupEnd = 0;
  let groupDay = '';
  for (const event of sorted) {
    const day = DateTime.fromJSDate(event.start, { zone }).toISODate()!;
    const last = groups.at(-1);
    if (last && day === groupDay && event.start.getTime() < groupEnd) {
      last.push(event);
      groupEnd = Math.max(groupEnd, blockEnd(event));
    } else {
      groups.push([event]);
      groupEnd = blockEnd(event);
      groupDay = day;
    }
  }
  const shown: CalendarEvent[] = [];
  for (const group of groups) {
    const [first, ...rest] = group;
    if (!first) continue;
    if (peakOverlap(group) <= columns) {
      shown.push(...group);
      continue;
    }
    // One column: the whole group is one block that opens its day.
    if (columns < 2) {
      shown.push({
        id: `more-${first.id}`,
        title: `${group.length} appointments`,
        start: first.start,
        end: new Date(Math.max(...group.map(blockEnd))),
        resourceId: '',
        job: null,
        more: group.length,
      });
      continue;
    }
    const start = rest[0]!.start;
    const end = new Date(Math.max(...rest.map(blockEnd)));
    shown.push(first, {
      id: `more-${first.id}`,
      title: `+${rest.length} more`,
      start,
      end,
      resourceId: '',
      job: null,
      more: rest.length,
    });
  }
  return shown;
}

/** A block is at least 15 minutes tall on the grid, so a shorter appointment still covers what it covers there. */
const blockEnd = (event: CalendarEvent) => Math.max(event.end.getTime(), event.start.getTime() + 15 * 60_000);

function peakOverlap(group: readonly CalendarEvent[]): number {
  const edges = group.flatMap((event) => [
    { at: event.start.getTime(), step: 1 },
    { at: blockEnd(event), step: -1 },
  ]);
  // An end before a start at the same instant: back-to-back appointments do not overlap.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let open = 0;
  let peak = 0;
  for (const edge of edges) {
    open += edge.step;
    peak = Math.max(peak, open);
  }
  return peak;
}

/** 'Alex Smith' → 'AS': what a block too narrow for a word shows. */
export function initialsOf(name: string): string {
  const words = name.split(/[\s-]+/).filter((word) => /\p{L}|\p{N}/u.test(word));
  return words
    .slice(0, 2)
    .map((word) => [...word.replace(/^[^\p{L}\p{N}]+/u, '')][0] ?? '')
    .join('')
    .toUpperCase();
}
