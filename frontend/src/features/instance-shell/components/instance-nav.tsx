import { useLayoutEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '@/lib/cn';
import { type NavItem, navItemState } from '../utils/nav-items';

const itemClasses =
  'inline-flex h-9 shrink-0 items-center rounded-md px-2.5 text-sm font-medium whitespace-nowrap transition-colors ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * The instance's main navigation. The current page's entry is plain text with
 * aria-current="page", not a link.
 * The row scrolls sideways when its links do not fit (a phone), instead of widening the page,
 * and brings the current page's entry into view: on a phone, Takings or Admin would otherwise
 * sit past the edge, so nothing on screen says where you are.
 */
export function InstanceNav({ items, pathname, className }: { items: NavItem[]; pathname: string; className?: string }) {
  const row = useRef<HTMLUListElement>(null);
  const current = items.find((item) => navItemState(item, pathname) !== null)?.to ?? null;
  // After the render that drew the row: only the row scrolls (never the page, as scrollIntoView would).
  // Again whenever an entry changes size: a badge that arrives after the row was drawn (new service
  // requests) widens its entry and pushes the current one back past the edge.
  const entryCount = items.length;
  useLayoutEffect(() => {
    const list = row.current;
    const entry = current === null ? null : list?.querySelector<HTMLElement>(`li[data-to="${CSS.escape(current)}"]`);
    if (!list || !entry) return;
    const reveal = () => {
      const start = entry.offsetLeft;
      const end = start + entry.offsetWidth;
      if (start < list.scrollLeft) list.scrollLeft = start;
      else if (end > list.scrollLeft + list.clientWidth) list.scrollLeft = end - list.clientWidth;
    };
    reveal();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(reveal);
    for (const child of list.children) observer.observe(child);
    return () => observer.disconnect();
  }, [current, entryCount]);
  return (
    <nav aria-label="Main" className={cn('min-w-0', className)}>
      {/* relative: the badges' absolutely placed screen-reader text is then clipped by this row's
          scrolling instead of widening the page, and the entries' offsets are measured from it. */}
      <ul ref={row} className="relative flex items-center gap-0.5 overflow-x-auto">
        {items.map((item) => {
          const state = navItemState(item, pathname);
          return (
            <li key={item.to} data-to={item.to} className="shrink-0">
              {state === 'page' ? (
                <span aria-current="page" className={cn(itemClasses, 'bg-accent text-accent-foreground')}>
                  {item.label}
                  <NavBadge item={item} />
                </span>
              ) : (
                <Link
                  to={item.to}
                  className={cn(
                    itemClasses,
                    state === 'section'
                      ? 'bg-accent/60 text-foreground hover:bg-accent'
                      : 'text-muted-foreground hover:bg-accent hover:text-accent-foreground',
                  )}
                >
                  {item.label}
                  <NavBadge item={item} />
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The count beside a label (new public service requests); nothing for none. */
function NavBadge({ item }: { item: NavItem }) {
  if (!item.badge) return null;
  return (
    <span className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs leading-5 font-semibold text-primary-foreground">
      <span aria-hidden="true">{item.badge > 99 ? '99+' : item.badge}</span>
      <span className="sr-only">{item.badgeLabel ?? `${item.badge} new`}</span>
    </span>
  );
}
