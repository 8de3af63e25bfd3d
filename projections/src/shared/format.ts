/**
 * Display formatters of times and durations, one for every screen (in the reader's locale
 * and time zone). Browser-safe.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(iso: string | null | undefined, options: Intl.DateTimeFormatOptions, locale?: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let formatter = formats.get(key);
  if (!formatter) formats.set(key, (formatter = new Intl.DateTimeFormat(locale, options)));
  return formatter.format(date);
}

/** 'Jan 31, 2025' in the reader's locale; '' for none; the text itself when it is not a time. */
export function formatDate(iso: string | null | undefined, locale?: string): string {
  return format(iso, { dateStyle: 'medium' }, locale);
}

/**
 * 'Jan 31, 2025, 2:05 PM' in the reader's locale and zone ('…2:05:09 PM' with `seconds`, for
 * histories, where changes come quickly); '' for none; the text itself when it is not a time.
 */
export function formatDateTime(iso: string | null | undefined, options: { seconds?: boolean; locale?: string } = {}): string {
  return format(iso, { dateStyle: 'medium', timeStyle: options.seconds ? 'medium' : 'short' }, options.locale);
}

/** Minutes in words: 30 → '30 min', 90 → '1 h 30 min', 120 → '2 h'; '' for none. */
export function formatDuration(minutes: number | null): string {
  if (minutes === null || !Number.isFinite(minutes) || minutes <= 0) return '';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
