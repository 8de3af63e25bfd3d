const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO time as a `datetime-local` input holds it (the browser's zone, minutes); '' when none or invalid. */
export function toDateTimeLocalValue(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (read in the browser's zone) as an ISO time with a zone; '' stays ''. */
export function fromDateTimeLocalValue(local: string): string {
  if (!local) return '';
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
