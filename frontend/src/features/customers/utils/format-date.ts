/** A date for cards ('Jan 31, 2025'); '' for a missing or unreadable one. */
export function formatDate(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}

/** A moment for history rows ('Jan 31, 2025, 2:05:09 PM'): seconds, since changes come quickly. */
export function formatDateTime(iso: string, locale?: string): string {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  });
}
