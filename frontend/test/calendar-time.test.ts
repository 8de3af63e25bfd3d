import { initialsOf } from '../src/features/calendar/utils/calendar-events';
import { describe, expect, test } from 'vitest';
import type { AppointmentView } from '@crm/projections/pipeline';
import { appointmentFormErrors, appointmentPayload, formFromJob, newForm } from '@/features/calendar/utils/appointment-form';
import {
  eventTitle,
  jobTypeColor,
  monthCellEvents,
  techLanes,
  toCalendarEvent,
  weekSlotEvents,
} from '@/features/calendar/utils/calendar-events';
import {
  durationMinutes,
  fromLocalInput,
  hourOn,
  keepTimeOfDay,
  monthYearLabel,
  navigateDate,
  swipeAction,
  toLocalInput,
  visibleRange,
} from '@/features/calendar/utils/calendar-time';
import { zonedLocalizer } from '@/features/calendar/utils/zoned-localizer';

const NY = 'America/New_York';
const TOKYO = 'Asia/Tokyo';

const job = (overrides: Partial<AppointmentView> = {}): AppointmentView => ({
  id: 'j1',
  jobNumber: '7',
  name: 'Ann Lee',
  phone: '•••-•••-0100',
  part: 'Brakes',
  makeModel: '2015 Civic',
  quote: '250',
  stage: 'Scheduled',
  vin: '',
  csr: 'Owner',
  jobType: 'Mobile',
  appointment: '2026-03-09T13:00:00.000Z',
  duration: 90,
  tech: 'Tom',
  notes: '',
  customerId: null,
  createdAt: '2026-03-01T00:00:00.000Z',
  createdBy: 'Owner',
  updatedAt: '2026-03-01T00:00:00.000Z',
  revision: 0,
  appointmentEnd: '2026-03-09T14:30:00.000Z',
  ...overrides,
});

describe("the shop's time zone", () => {
  test('the visible range is whole days in the zone: month grids Sunday to Saturday, weeks from Sunday', () => {
    // 03:00Z on 1 March is still 28 February in New York, already 1 March in Tokyo.
    const instant = new Date('2026-03-01T03:00:00Z');
    expect(visibleRange('day', instant, NY)).toEqual({ from: '2026-02-28', to: '2026-03-01' });
    expect(visibleRange('day', instant, TOKYO)).toEqual({ from: '2026-03-01', to: '2026-03-02' });
    expect(visibleRange('week', instant, NY)).toEqual({ from: '2026-02-22', to: '2026-03-01' });
    expect(visibleRange('month', instant, NY)).toEqual({ from: '2026-02-01', to: '2026-03-01' });
    expect(visibleRange('month', instant, TOKYO)).toEqual({ from: '2026-03-01', to: '2026-04-05' });
    expect(monthYearLabel('month', instant, NY)).toBe('February 2026');
    expect(monthYearLabel('month', instant, TOKYO)).toBe('March 2026');
    expect(monthYearLabel('week', new Date('2026-03-31T15:00:00Z'), NY)).toBe('March – April 2026');
  });

  test('a month drop keeps the time of day in the zone, across the daylight-saving change', () => {
    // 9:00 EST on 6 March (14:00Z) dropped on 10 March stays 9:00, now EDT (13:00Z).
    const dropped = new Date('2026-03-10T05:00:00Z');
    expect(keepTimeOfDay(new Date('2026-03-06T14:00:00Z'), dropped, NY).toISOString()).toBe('2026-03-10T13:00:00.000Z');
    expect(hourOn(new Date('2026-03-10T15:00:00Z'), 8, NY).toISOString()).toBe('2026-03-10T12:00:00.000Z');
    expect(navigateDate('day', new Date('2026-03-08T04:30:00Z'), 'NEXT', NY).toISOString()).toBe('2026-03-09T03:30:00.000Z');
  });

  test('the datetime field reads and writes the zone', () => {
    expect(toLocalInput('2026-03-09T13:00:00.000Z', NY)).toBe('2026-03-09T09:00');
    expect(fromLocalInput('2026-03-09T09:00', NY)).toBe('2026-03-09T13:00:00.000Z');
    expect(fromLocalInput('2026-03-09T09:00', TOKYO)).toBe('2026-03-09T00:00:00.000Z');
    expect(fromLocalInput('', NY)).toBeNull();
    expect(fromLocalInput('tomorrow', NY)).toBeNull();
  });

  test("the localizer's days and labels are the zone's whatever the machine's zone", () => {
    const localizer = zonedLocalizer(TOKYO);
    const instant = new Date('2026-03-01T03:00:00Z'); // 12:00 in Tokyo
    expect(localizer.startOf(instant, 'day').toISOString()).toBe('2026-02-28T15:00:00.000Z');
    expect(localizer.format(instant, 'h a')).toBe('12 PM');
    expect(zonedLocalizer(NY).format(instant, 'yyyy-LL-dd HH:mm')).toBe('2026-02-28 22:00');
  });
});

describe('events, lanes and gestures', () => {
  test("an appointment's block: 'name - part', its end, its job type's colour (none is in-shop)", () => {
    const event = toCalendarEvent(job());
    expect(event).toMatchObject({ title: 'Ann Lee - Brakes', resourceId: 'Tom' });
    expect(event.end.getTime() - event.start.getTime()).toBe(90 * 60_000);
    expect(eventTitle({ name: '', part: 'Oil' })).toBe('Oil');
    expect(['Mobile', 'in-shop', 'PICKUP', 'delivery', 'Floating Shop', ''].map(jobTypeColor)).toEqual([
      'mobile',
      'in-shop',
      'pickup',
      'delivery',
      'other',
      'in-shop',
    ]);
    expect(durationMinutes(new Date('2026-03-09T13:00:00Z'), new Date('2026-03-09T14:44:00Z'))).toBe(105);
  });

  test('lanes: Unassigned, every user who can do the work (booked that day or not), then other names on its jobs', () => {
    const events = [
      job({ tech: 'Tom' }),
      job({ id: 'j2', tech: '' }),
      job({ id: 'j3', tech: 'Former Tech' }),
      job({ id: 'j4', tech: 'Ann' }),
    ].map(toCalendarEvent);
    expect(techLanes(events, ['Tom', 'Ann', 'Idle User']).map((lane) => lane.title)).toEqual([
      'Unassigned',
      'Ann',
      'Idle User',
      'Tom',
      'Former Tech',
    ]);
  });

  test("week: a group of overlapping appointments that needs more than two columns shows its first and one '+N more' for the rest", () => {
    const at = (id: string, appointment: string, appointmentEnd: string) => toCalendarEvent(job({ id, appointment, appointmentEnd }));
    const events = [
      at('a', '2026-03-09T15:00:00.000Z', '2026-03-09T16:00:00.000Z'),
      at('b', '2026-03-09T15:00:00.000Z', '2026-03-09T16:00:00.000Z'),
      at('c', '2026-03-09T15:30:00.000Z', '2026-03-09T17:00:00.000Z'),
      // Back to back with the group's end: a group of its own.
      at('d', '2026-03-09T17:00:00.000Z', '2026-03-09T18:00:00.000Z'),
      // Two side by side stay as they are.
      at('e', '2026-03-10T15:00:00.000Z', '2026-03-10T16:00:00.000Z'),
      at('f', '2026-03-10T15:30:00.000Z', '2026-03-10T16:30:00.000Z'),
    ];
    const shown = weekSlotEvents(events, 'America/Chicago');
    expect(shown.map((event) => event.more ?? event.id)).toEqual(['a', 2, 'd', 'e', 'f']);
    const more = shown.find((event) => event.more)!;
    expect(more).toMatchObject({ title: '+2 more', job: null });
    expect([more.start.toISOString(), more.end.toISOString()]).toEqual(['2026-03-09T15:00:00.000Z', '2026-03-09T17:00:00.000Z']);
  });

  test("week on a phone (one column): overlapping appointments become one 'N appointments' block; one alone stays", () => {
    const at = (id: string, appointment: string, appointmentEnd: string) => toCalendarEvent(job({ id, appointment, appointmentEnd }));
    const events = [
      at('a', '2026-03-09T15:00:00.000Z', '2026-03-09T16:00:00.000Z'),
      at('b', '2026-03-09T15:30:00.000Z', '2026-03-09T17:00:00.000Z'),
      at('d', '2026-03-09T17:00:00.000Z', '2026-03-09T18:00:00.000Z'),
    ];
    const shown = weekSlotEvents(events, 'America/Chicago', 1);
    expect(shown.map((event) => event.more ?? event.id)).toEqual([2, 'd']);
    expect(shown[0]).toMatchObject({ title: '2 appointments', job: null });
    expect([shown[0]!.start.toISOString(), shown[0]!.end.toISOString()]).toEqual(['2026-03-09T15:00:00.000Z', '2026-03-09T17:00:00.000Z']);
  });

  test("a month cell shows two appointments of its day (in the zone), then one '+N more' after them", () => {
    const at = (id: string, appointment: string) => toCalendarEvent(job({ id, appointment, appointmentEnd: appointment }));
    // 23:30 in Chicago on the 8th (daylight time since that morning) is the 9th in UTC: it belongs to the 8th.
    const events = [
      at('a', '2026-03-09T15:00:00.000Z'),
      at('b', '2026-03-09T04:30:00.000Z'),
      at('c', '2026-03-09T14:00:00.000Z'),
      at('d', '2026-03-09T16:00:00.000Z'),
      at('e', '2026-03-10T15:00:00.000Z'),
    ];
    const shown = monthCellEvents(events, 'America/Chicago');
    expect(shown.map((event) => (event.title === 'Ann Lee - Brakes' ? event.id : event.title))).toEqual(['b', 'c', 'a', '+1 more', 'e']);
    const more = shown.find((event) => event.more)!;
    expect(more).toMatchObject({ more: 1, job: null });
    expect(more.start.toISOString()).toBe('2026-03-10T04:58:59.999Z');
  });

  test('a swipe is at least 50 px sideways and more than twice the vertical movement', () => {
    expect(swipeAction(-60, 10)).toBe('NEXT');
    expect(swipeAction(80, -20)).toBe('PREV');
    expect(swipeAction(49, 0)).toBeNull();
    expect(swipeAction(60, 30)).toBeNull();
    expect(swipeAction(-61, 30)).toBe('NEXT');
  });
});

describe('Create New Appointment and Edit Appointment', () => {
  test('Customer Name, Phone and Part/Service are required to create; a new job starts in Scheduled with its CSR', () => {
    const form = newForm(new Date('2026-03-09T13:00:00Z'), NY, 'Tom');
    expect(form).toMatchObject({ appointment: '2026-03-09T09:00', duration: '60', jobType: 'In Shop', tech: 'Tom' });
    expect(appointmentFormErrors(form, NY, true)).toEqual({
      name: 'Customer Name is required',
      phone: 'Phone is required',
      part: 'Part/Service is required',
    });
    const filled = { ...form, name: ' Ann ', phone: '617-555-0100', part: 'Brakes' };
    expect(appointmentFormErrors(filled, NY, true)).toEqual({});
    expect(appointmentPayload(filled, NY, { csr: 'Owner' })).toMatchObject({
      name: 'Ann',
      appointment: '2026-03-09T13:00:00.000Z',
      duration: '60',
      stage: 'Scheduled',
      csr: 'Owner',
    });
  });

  test('editing shows the job in the zone and sends no stage', () => {
    const form = formFromJob(job({ phone: '6175550100' }), NY);
    expect(form).toMatchObject({ phone: '617-555-0100', appointment: '2026-03-09T09:00', duration: '90' });
    expect(appointmentFormErrors({ ...form, name: '' }, NY, false)).toEqual({});
    expect(appointmentPayload(form, NY, null)).not.toHaveProperty('stage');
  });
});

describe("a block too narrow for a word shows the customer's initials", () => {
  test('first letters of the first two words, upper case; stray marks and dashes are not words', () => {
    expect(initialsOf('Alex Smith')).toBe('AS');
    expect(initialsOf('mary ann van dyke')).toBe('MA');
    expect(initialsOf('Olive')).toBe('O');
    expect(initialsOf('"Zoë" Özdemir - Brake pads')).toBe('ZÖ');
    expect(initialsOf('  ')).toBe('');
  });
});
