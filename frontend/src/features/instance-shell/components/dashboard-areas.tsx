import type { DashboardStats } from '@crm/projections/contract';
import type { FeatureKey } from '@crm/projections/platform';
import type { ReactNode } from 'react';
import { CalendarDaysIcon, MailIcon, ShieldCheckIcon, SquareKanbanIcon, UsersIcon } from '@/components/ui/icons';
import type { InstanceLinks } from '@/config/paths';
import type { DashboardAction } from '../utils/dashboard-items';

type Action = DashboardAction;

/**
 * The service requests' place on the home, composed by the app (features do not import each
 * other): where its screens are and its open count once known.
 */
export interface ServiceRequestsArea {
  list: string;
  form: string;
  /** Open requests; null while unknown. */
  open: number | null;
  /** Requests from the public page nobody has acted on yet. */
  newPublic: number;
}

export interface Area {
  feature: FeatureKey;
  title: string;
  /** The /maven home's tile name. */
  tile: string;
  description: string;
  actions: Action[];
  icon: ReactNode;
  /** Shown as open whatever the instance's features (user management, for its managers). */
  alwaysOn?: boolean;
}

/**
 * The dashboard's areas: Pipeline, Customers, Calendar, Service Requests, and Administration
 * for user managers (as user management alone when the admin feature is off). No "add"
 * action for a read-only user.
 */
export function areasOf({
  links,
  showAdmin,
  adminFeature,
  canWrite,
  serviceRequests,
}: {
  links: InstanceLinks;
  showAdmin: boolean;
  adminFeature: boolean;
  canWrite: boolean;
  serviceRequests: ServiceRequestsArea | null;
}): Area[] {
  const areas: Area[] = [
    {
      feature: 'pipeline',
      title: 'Pipeline Management',
      tile: 'Pipeline',
      description: 'Track every job and quote from the first call to the final payment.',
      actions: [{ label: 'View Pipeline', to: links.pipeline }],
      icon: <SquareKanbanIcon />,
    },
    {
      feature: 'customers',
      title: 'Customer Management',
      tile: 'Customers',
      description: 'Customers, their vehicles, past services and invoices in one place.',
      actions: [{ label: 'View Customers', to: links.customers }, ...(canWrite ? [{ label: 'Add Customer', to: links.newCustomer }] : [])],
      icon: <UsersIcon />,
    },
    {
      feature: 'calendar',
      title: 'Calendar & Scheduling',
      tile: 'Calendar',
      description: 'Appointments by day, week or month; drag a job to reschedule it.',
      actions: [{ label: 'View Calendar', to: links.calendar }],
      icon: <CalendarDaysIcon />,
    },
  ];
  if (serviceRequests) {
    areas.push({
      feature: 'serviceRequests',
      title: 'Service Requests',
      tile: 'Requests',
      description: 'Requests from the phone, the counter and the online form, until they become jobs.',
      actions: [
        { label: 'View Requests', to: serviceRequests.list },
        ...(canWrite ? [{ label: 'New Request', to: serviceRequests.form }] : []),
      ],
      icon: <MailIcon />,
    });
  }
  if (showAdmin) {
    areas.push({
      feature: 'admin',
      title: adminFeature ? 'Administration' : 'User Management',
      tile: adminFeature ? 'Admin' : 'Users',
      description: 'Add staff, set their roles and permissions, and lock accounts.',
      actions: [{ label: adminFeature ? 'Admin Dashboard' : 'Manage Users', to: links.admin }],
      icon: <ShieldCheckIcon />,
      alwaysOn: true,
    });
  }
  return areas;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The count line of an area's card, from the server's figures (null: not counted for this user). */
export function countLabel(
  feature: FeatureKey,
  stats: DashboardStats | undefined,
  serviceRequests: ServiceRequestsArea | null,
): string | null {
  switch (feature) {
    case 'customers':
      return stats?.customers == null ? null : plural(stats.customers, 'customer', 'customers');
    case 'pipeline':
      return stats?.openJobs == null ? null : plural(stats.openJobs, 'open job', 'open jobs');
    case 'calendar':
      return stats?.appointmentsThisWeek == null ? null : `${plural(stats.appointmentsThisWeek, 'appointment', 'appointments')} this week`;
    case 'serviceRequests':
      return serviceRequests?.open == null ? null : plural(serviceRequests.open, 'open request', 'open requests');
    case 'admin':
      return stats?.users == null ? null : plural(stats.users, 'user', 'users');
  }
}
