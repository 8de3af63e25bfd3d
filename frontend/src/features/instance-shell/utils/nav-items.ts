import type { Features } from '@crm/projections/platform';
import type { InstanceFamily, InstanceLinks } from '@/config/paths';

export interface NavItem {
  label: string;
  to: string;
  /** A count shown beside the label (e.g. new public service requests); none when absent or 0. */
  badge?: number;
  /** What the count means, for screen readers ("3 new"). */
  badgeLabel?: string;
}

/** The navigation's link to user management: the Admin area, or just Users when the instance's Admin feature is off. */
export const adminNavLabel = (adminFeature: boolean) => (adminFeature ? 'Admin' : 'Users');

/** Where a shop's admin adds staff, in the navigation's own words (read before sign-in, so both namings). */
export const whereAdminsAddStaff = `${adminNavLabel(true)} (${adminNavLabel(false)} when the CRM's Admin feature is off)`;

/**
 * The signed-in navigation: Home, Pipeline, Customers, Calendar,
 * Service Requests, and Admin for admins, in either family (/crm/{instance}/… or /maven/…). Features the instance has off are
 * left out (the dashboard shows them as Coming Soon), except that user managers always keep
 * their way to user management: "Users" when the admin feature is off.
 */
export function navItems({
  links,
  // Both families get the same items now (the links carry the family's addresses).
  family: _family,
  features,
  showAdmin,
}: {
  links: InstanceLinks;
  family: InstanceFamily;
  features: Features;
  showAdmin: boolean;
}): NavItem[] {
  const items: NavItem[] = [{ label: 'Home', to: links.home }];
  if (features.pipeline) items.push({ label: 'Pipeline', to: links.pipeline });
  if (features.customers) items.push({ label: 'Customers', to: links.customers });
  if (features.calendar) items.push({ label: 'Calendar', to: links.calendar });
  if (features.serviceRequests) items.push({ label: 'Service Requests', to: links.serviceList });
  if (showAdmin) items.push({ label: adminNavLabel(features.admin), to: links.admin });
  return items;
}

/** 'page' for the current page (its link is inert), 'section' below it (e.g. a customer form), else null. */
export function navItemState(item: NavItem, pathname: string): 'page' | 'section' | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === item.to) return 'page';
  return path.startsWith(`${item.to}/`) ? 'section' : null;
}
