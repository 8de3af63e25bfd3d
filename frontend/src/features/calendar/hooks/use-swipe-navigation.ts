import { useEffect, useRef } from 'react';
import { swipeAction } from '../utils/calendar-time';

/**
 * Sideways swipes move the calendar: returns the touchstart handler for the swiped element.
 * While it is mounted, the page's horizontal overscroll is off.
 */
export function useSwipeNavigation(navigate: (action: 'PREV' | 'NEXT') => void): (event: React.TouchEvent) => void {
  // On this screen a sideways swipe moves the calendar. Without this, Chromium on a touch
  // screen also takes a swipe to the right as the browser's "back" and leaves the page.
  useEffect(() => {
    const root = document.documentElement;
    const before = root.style.overscrollBehaviorX;
    root.style.overscrollBehaviorX = 'none';
    return () => {
      root.style.overscrollBehaviorX = before;
    };
  }, []);

  // Swipe: at least 50 px sideways and more than twice the vertical movement. The end of the
  // touch is heard on the element the finger first touched, not on the section: when that
  // element leaves the page mid-swipe (a loading line replaced by the day's grid), its
  // touchend no longer bubbles up to any ancestor, and the swipe would be lost.
  const navigateLatest = useRef(navigate);
  navigateLatest.current = navigate;
  return (event: React.TouchEvent) => {
    const first = event.touches[0];
    if (!first || event.touches.length !== 1) return;
    const start = { x: first.clientX, y: first.clientY };
    const target = event.target;
    const finish = (end: Event) => {
      target.removeEventListener('touchend', finish);
      target.removeEventListener('touchcancel', finish);
      const point = end.type === 'touchend' ? (end as TouchEvent).changedTouches[0] : undefined;
      const action = point ? swipeAction(point.clientX - start.x, point.clientY - start.y) : null;
      if (action) navigateLatest.current(action);
    };
    target.addEventListener('touchend', finish);
    target.addEventListener('touchcancel', finish);
  };
}
