import { Link } from 'react-router-dom';
import { cn } from '@/lib/cn';
import { type NavItem, navItemState } from '../utils/nav-items';

const itemClasses =
  'inline-flex h-9 shrink-0 items-center rounded-md px-2.5 text-sm font-medium whitespace-nowrap transition-colors ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

/**
 * The instance's main navigation. The current page's entry is plain text with
 * aria-current="page", not a link.
 * When its entries do not fit one row (a phone) they wrap onto more rows: every entry stays in
 * sight and whole. A row that scrolled sideways showed one entry cut at each edge (the first
 * one cut off at the left once the current one was scrolled into view), and hid the others.
 */
export function InstanceNav({ items, pathname, className }: { items: NavItem[]; pathname: string; className?: string }) {
  return (
    <nav aria-label="Main" className={cn('min-w-0', className)}>
      {/* relative: the badges' absolutely placed screen-reader text is placed within the row,
          never past the page's edge. */}
      <ul className="relative flex flex-wrap items-center gap-0.5">
        {items.map((item) => {
          const state = navItemState(item, pathname);
          return (
            <li key={item.to} className="shrink-0">
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
