import type { AppointmentView } from '@crm/projections/pipeline';
import { normalizeJobType } from '@crm/projections/pipeline';
import { DateTime } from 'luxon';

/** An appointment as react-big-calendar draws it. */
export interface CalendarEvent {
  id: string;
  /** 'name - part' (spec §3); what is missing is left out. */
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

/** A month cell shows this many appointments, then '+N more' (spec §9). */
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

/** The legend's colour families (spec §5): mobile blue, in-shop green, pickup orange, delivery purple, others grey. */
export type JobTypeColor = 'mobile' | 'in-shop' | 'pickup' | 'delivery' | 'other';

export const JOB_TYPE_LEGEND: ReadonlyArray<{ color: JobTypeColor; label: string }> = [
  { color: 'mobile', label: 'Mobile' },
  { color: 'in-shop', label: 'In Shop' },
  { color: 'pickup', label: 'Pickup' },
  { color: 'delivery', label: 'Delivery' },
  { color: 'other', label: 'Other' },
];

/** A job without a type is an in-shop job on the calendar (spec §3). */
export function jobTypeColor(jobType: string): JobTypeColor {
  if (!jobType.trim()) return 'in-shop';
  const colors: Partial<Record<string, JobTypeColor>> = { Mobile: 'mobile', 'In Shop': 'in-shop', Pickup: 'pickup', Delivery: 'delivery' };
  return colors[normalizeJobType(jobType) ?? ''] ?? 'other';
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
 * The day view's lanes: Unassigned, then each active user with a job that day, then any
 * other technician named on that day's jobs (a name no active user has any more), A-Z.
 */
export function techLanes(dayEvents: readonly CalendarEvent[], activeUsers: readonly string[]): TechLane[] {
  const onJobs = new Set(dayEvents.map((event) => event.resourceId).filter((tech) => tech !== ''));
  const users = activeUsers.filter((name) => onJobs.has(name));
  const others = [...onJobs].filter((tech) => !activeUsers.includes(tech));
  const byName = (a: string, b: string) => a.localeCompare(b);
  return [UNASSIGNED_LANE, ...[...new Set(users)].sort(byName).map(lane), ...others.sort(byName).map(lane)];
}

const lane = (name: string): TechLane => ({ id: name, title: name });
