import { displayTimeZone } from '@crm/projections/contract';
import { DateTime } from 'luxon';

/*
 * A `datetime-local` input holds a wall-clock time with no zone: here it is always the shop's
 * wall clock (the zone every screen shows), never the browser's.
 */

/** An ISO time as a `datetime-local` input holds it (the shop's zone, minutes); '' when none or invalid. */
export function toDateTimeLocalValue(iso: string, zone: string = displayTimeZone()): string {
  if (!iso) return '';
  const time = DateTime.fromISO(iso, { zone });
  return time.isValid ? time.toFormat("yyyy-MM-dd'T'HH:mm") : '';
}

/** A `datetime-local` value (the shop's wall clock) as an ISO time in UTC; '' stays ''. */
export function fromDateTimeLocalValue(local: string, zone: string = displayTimeZone()): string {
  if (!local) return '';
  const time = DateTime.fromISO(local, { zone });
  return time.isValid ? time.toUTC().toISO()! : '';
}
