/**
 * Display formatters of times and durations, one for every screen. Times are shown in the
 * shop's time zone, whatever the browser's: the app sets it once the session names the shop
 * (`setDisplayTimeZone`); before that (and for the provider's own screens) the reader's zone
 * is used. Browser-safe.
 */

import { CALENDAR_DAY_TEXT, isCalendarDay } from './calendar-days.ts';

let displayZone: string | undefined;

/** The zone every formatter uses from now on (the signed-in shop's); undefined: the reader's own. */
export function setDisplayTimeZone(zone: string | undefined): void {
  if (zone) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
    } catch {
      zone = undefined;
    }
  }
  displayZone = zone || undefined;
}

/** The zone times are shown and typed in: the shop's once known, else the reader's. */
export function displayTimeZone(): string {
  return displayZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function format(iso: string | Date | null | undefined, options: Intl.DateTimeFormatOptions, locale?: string, zone?: string): string {
  if (!iso) return '';
  const date = iso instanceof Date ? iso : new Date(iso);
  if (Number.isNaN(date.getTime())) return typeof iso === 'string' ? iso : '';
  const timeZone = zone ?? displayZone;
  const key = `${locale ?? ''}|${timeZone ?? ''}|${JSON.stringify(options)}`;
  let formatter = formats.get(key);
  if (!formatter) formats.set(key, (formatter = new Intl.DateTimeFormat(locale, { ...options, ...(timeZone ? { timeZone } : {}) })));
  return formatter.format(date);
}

export interface FormatOptions {
  locale?: string;
  /** An IANA zone; by default the shop's (see setDisplayTimeZone). */
  timeZone?: string;
}

/** How much of a date is shown: 'Jan 31, 2025' (medium), 'Fri, Jan 31, 2025' (weekday), 'Jan 31' (short: a chart's axis). */
export type DateForm = 'medium' | 'weekday' | 'short';

const DATE_FORMS: Record<DateForm, Intl.DateTimeFormatOptions> = {
  medium: { dateStyle: 'medium' },
  weekday: { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' },
  short: { month: 'short', day: 'numeric' },
};

/**
 * 'Jan 31, 2025' in the shop's zone ('Fri, Jan 31, 2025' or 'Jan 31' with `form`); '' for
 * none; the text itself when it is not a time. A calendar day ('2025-01-31') is that day in
 * any zone: it is read at noon UTC and shown in UTC, so no zone moves it to a neighbour.
 */
export function formatDate(iso: string | Date | null | undefined, options: (FormatOptions & { form?: DateForm }) | string = {}): string {
  const { locale, timeZone, form = 'medium' } = typeof options === 'string' ? { locale: options, timeZone: undefined } : options;
  const fields = DATE_FORMS[form];
  // A day that is not real ('2025-02-30') is shown as written, never as the day Date rolls it to.
  if (typeof iso === 'string' && CALENDAR_DAY_TEXT.test(iso))
    return isCalendarDay(iso) ? format(new Date(`${iso}T12:00:00Z`), fields, locale, 'UTC') : iso;
  return format(iso, fields, locale, timeZone);
}

/**
 * 'Jan 31, 2025, 2:05 PM' in the shop's zone ('…2:05:09 PM' with `seconds`, for histories,
 * where changes come quickly; '…2:05 PM PST' with `zoneName`, for a reader who may be
 * elsewhere, such as a customer opening the shop's link); '' for none; the text itself when
 * it is not a time.
 */
export function formatDateTime(
  iso: string | Date | null | undefined,
  options: FormatOptions & { seconds?: boolean; zoneName?: boolean } = {},
): string {
  // Intl takes no timeZoneName beside dateStyle/timeStyle: the same fields spelled out.
  const fields: Intl.DateTimeFormatOptions = options.zoneName
    ? { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }
    : { dateStyle: 'medium', timeStyle: 'short' };
  if (options.seconds) {
    if (options.zoneName) fields.second = '2-digit';
    else fields.timeStyle = 'medium';
  }
  return format(iso, fields, options.locale, options.timeZone);
}

/** '2:05 PM' in the shop's zone; '' for none. */
export function formatTime(iso: string | Date | null | undefined, options: FormatOptions = {}): string {
  return format(iso, { timeStyle: 'short' }, options.locale, options.timeZone);
}

/**
 * Server-written words carry times as UTC ('… for 2026-12-01 20:00 UTC', '… until
 * 2026-11-26T12:22:21.480Z'): the server writes them once for every reader. Shown to a person,
 * each becomes a time in the shop's zone ('Dec 1, 2026, 2:00 PM').
 */
const UTC_TIME_IN_TEXT = /\b(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?(?:Z| UTC)(?![\w:])/g;

export function localizeTimesInText(text: string, options: FormatOptions = {}): string {
  if (!text) return text;
  return text.replace(UTC_TIME_IN_TEXT, (match: string, day: string, minutes: string, seconds: string | undefined) => {
    const iso = `${day}T${minutes}${seconds ?? ''}Z`;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? match : formatDateTime(date, options);
  });
}

/** Minutes in words: 30 → '30 min', 90 → '1 h 30 min', 120 → '2 h'; '' for none. */
export function formatDuration(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes) || minutes <= 0) return '';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A mileage reading as every screen shows it: 120000 → '120,000'. */
export function formatMileage(miles: number): string {
  return miles.toLocaleString('en-US');
}

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount of dollars as money reads: '$18,025.30', '-$5.00'. */
export function formatDollars(value: number): string {
  return Number.isFinite(value) ? dollars.format(value) : '';
}
