import type { Features } from '@crm/projections/platform';
import type { InstanceLinks } from '@/config/paths';

export interface DashboardAction {
  label: string;
  to: string;
}

export interface QuickActionsInput {
  links: InstanceLinks;
  features: Features;
  canWrite: boolean;
  /** The service request form, where this family has one. */
  serviceForm?: string;
}

/**
 * The dashboard's Quick Actions: each only when its feature is on, and
 * none for a user who may not write (they would lead to forms that cannot be saved). Null when
 * the card has nothing to offer that user at all.
 */
export function quickActions({ links, features, canWrite, serviceForm }: QuickActionsInput): DashboardAction[] | null {
  if (!canWrite) return null;
  const actions: DashboardAction[] = [];
  if (features.customers) actions.push({ label: 'Add New Customer', to: links.newCustomer });
  // ?new=1: the pipeline opens its new entry dialog, so the action does what it says.
  if (features.pipeline) actions.push({ label: 'Create Pipeline Entry', to: `${links.pipeline}?new=1` });
  if (features.calendar) actions.push({ label: 'Schedule Appointment', to: links.calendar });
  if (features.serviceRequests && serviceForm) actions.push({ label: 'New Service Request', to: serviceForm });
  return actions;
}

export interface Tip {
  title: string;
  text: string;
}

/**
 * Getting Started: a tip per feature the instance has on, and for user managers the staff tip
 * (user management is theirs whatever the admin feature says; its place is named accordingly).
 */
export function gettingStartedTips({
  features,
  showAdmin,
  canWrite = true,
}: {
  features: Features;
  showAdmin: boolean;
  /** A read-only user is told what they can look up, not to add or drag what the server refuses them. */
  canWrite?: boolean;
}): Tip[] {
  const tips: Tip[] = [];
  if (features.pipeline) {
    tips.push({
      title: 'Pipeline',
      text: canWrite
        ? 'Add each job as it comes in and move it through the stages from Quote to Paid.'
        : 'Follow each job through the stages from Quote to Paid; open one to see its lines, estimate and invoice.',
    });
  }
  if (features.customers) {
    tips.push({
      title: 'Customers',
      text: canWrite
        ? 'Save customers with their vehicles, so a new job can be filled in from their record.'
        : 'Look up a customer to see their vehicles and every job done for them.',
    });
  }
  if (features.calendar) {
    tips.push({
      title: 'Calendar',
      text: canWrite
        ? 'Give jobs an appointment time, then drag them on the calendar to reschedule.'
        : "See the shop's appointments by day, week or month.",
    });
  }
  if (showAdmin) {
    tips.push({
      title: features.admin ? 'Admin' : 'Users',
      text: `Add your staff in ${features.admin ? 'the Admin Dashboard' : 'Users'} and lock accounts that should no longer sign in.`,
    });
  }
  return tips;
}
