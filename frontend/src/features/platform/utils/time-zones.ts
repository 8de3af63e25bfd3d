/**
 * The IANA zones this browser knows, for the shop's time-zone select. `extra` (the zone a
 * shop already has, or the browser's own) is kept in the list even when the runtime's list
 * lacks it (UTC is missing from some), so a select never shows a value it cannot offer.
 */
export function timeZoneOptions(...extra: Array<string | undefined>): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    // An older runtime: the zones in use are still offered.
  }
  const all = new Set([...zones, 'UTC', ...extra.filter((zone): zone is string => Boolean(zone))]);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** "America/Chicago (UTC−06:00)": the zone with its offset now, so "Central" shops can find theirs. */
export function timeZoneLabel(zone: string, now = new Date()): string {
  try {
    const offset = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(now)
      .find((part) => part.type === 'timeZoneName')?.value;
    // Zero offset reads "GMT" in some runtimes and "GMT+00:00" in others: one label for both.
    const shown = offset === 'GMT' ? 'UTC+00:00' : offset?.replace('GMT', 'UTC');
    return shown ? `${zone.replaceAll('_', ' ')} (${shown})` : zone;
  } catch {
    return zone;
  }
}
