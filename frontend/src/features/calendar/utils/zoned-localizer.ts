import { DateTime } from 'luxon';
import { luxonLocalizer, type DateLocalizer } from 'react-big-calendar';

/**
 * react-big-calendar's luxon localizer, working in the shop's zone: it only reaches luxon
 * through DateTime.fromJSDate, DateTime.local, max and min, so handing it a DateTime whose
 * constructors put every date in `zone` makes its days, weeks, slots and labels the shop's,
 * whatever the browser's zone (and without touching luxon's global default zone).
 */
export function zonedLocalizer(zone: string): DateLocalizer {
  const zoned = {
    fromJSDate: (date: Date) => DateTime.fromJSDate(date, { zone }),
    local: () => DateTime.local({ zone }),
    max: DateTime.max.bind(DateTime),
    min: DateTime.min.bind(DateTime),
  };
  // Weeks start on Sunday (luxon's 7).
  return luxonLocalizer(zoned as unknown as typeof DateTime, { firstDayOfWeek: 7 });
}
