import { isCalendarDay } from '@crm/projections/shared';
import { DateTime } from 'luxon';
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { CALENDAR_VIEWS, type CalendarView } from '../utils/calendar-time';

type Update<T> = T | ((current: T) => T);

/**
 * The calendar's view, day and technician lanes live in the address (`?view=week&date=2026-12-01&lanes=1`,
 * the day in the shop's zone), so a reload or a shared link shows the same calendar. Without
 * them: today, the day view on a phone and the month elsewhere.
 */
export function useCalendarAddress(timeZone: string, phone: () => boolean) {
  const [params, setParams] = useSearchParams();
  const fallbackView = useRef<CalendarView | null>(null);
  fallbackView.current ??= phone() ? 'day' : 'month';

  const viewParam = params.get('view');
  const view: CalendarView = CALENDAR_VIEWS.includes(viewParam as CalendarView) ? (viewParam as CalendarView) : fallbackView.current;
  const dateParam = params.get('date');
  const date = useMemo(() => {
    const day = dateParam && isCalendarDay(dateParam) ? DateTime.fromISO(dateParam, { zone: timeZone }) : null;
    // Noon of the shop's day: clear of any day boundary.
    return day?.isValid ? day.set({ hour: 12 }).toJSDate() : new Date();
  }, [dateParam, timeZone]);
  const lanes = params.get('lanes') === '1';

  // Functional updates read the latest values, not the ones of the render that made the callback.
  const latest = useRef({ view, date, lanes });
  latest.current = { view, date, lanes };
  const write = useCallback(
    (patch: Partial<{ view: CalendarView; date: Date; lanes: boolean }>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (patch.view) next.set('view', patch.view);
          if (patch.date) next.set('date', DateTime.fromJSDate(patch.date, { zone: timeZone }).toISODate()!);
          if (patch.lanes !== undefined) {
            if (patch.lanes) next.set('lanes', '1');
            else next.delete('lanes');
          }
          return next;
        },
        { replace: true },
      ),
    [setParams, timeZone],
  );
  const setView = useCallback(
    (update: Update<CalendarView>) => write({ view: typeof update === 'function' ? update(latest.current.view) : update }),
    [write],
  );
  const setDate = useCallback(
    (update: Update<Date>) => write({ date: typeof update === 'function' ? update(latest.current.date) : update }),
    [write],
  );
  const setLanes = useCallback(
    (update: Update<boolean>) => write({ lanes: typeof update === 'function' ? update(latest.current.lanes) : update }),
    [write],
  );
  return { view, setView, date, setDate, lanes, setLanes };
}
