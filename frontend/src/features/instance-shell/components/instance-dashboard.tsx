import type { CurrentUserView } from '@crm/projections/identity';
import type { FeatureKey, Features } from '@crm/projections/platform';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { CalendarDaysIcon, PlusIcon, ShieldCheckIcon, SquareKanbanIcon, UsersIcon } from '@/components/ui/icons';
import type { InstanceLinks } from '@/config/paths';
import { cn } from '@/lib/cn';
import { type AreaCounts, UPCOMING_DAYS, useAreaCounts } from '../api/get-area-counts';
import { useGreeting } from '../hooks/use-greeting';
import { type DashboardAction, gettingStartedTips, quickActions } from '../utils/dashboard-items';
import { RecentActivity } from './recent-activity';

type Action = DashboardAction;

interface Area {
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
 * The dashboard's areas (spec-platform.md §2 "CRM home"); Administration only for admins, as
 * user management alone when the admin feature is off. No "add" action for a read-only user.
 */
function areasOf({
  links,
  showAdmin,
  adminFeature,
  canWrite,
}: {
  links: InstanceLinks;
  showAdmin: boolean;
  adminFeature: boolean;
  canWrite: boolean;
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

/** The count line of an area's card (spec-platform.md §2: customers and pipeline show counts). */
function countLabel(feature: FeatureKey, counts: AreaCounts | undefined): string | null {
  if (!counts) return null;
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
  switch (feature) {
    case 'customers':
      return counts.customers === null ? null : plural(counts.customers, 'customer', 'customers');
    case 'pipeline':
      return counts.openJobs === null ? null : plural(counts.openJobs, 'open job', 'open jobs');
    case 'calendar':
      return counts.upcomingAppointments === null
        ? null
        : `${plural(counts.upcomingAppointments, 'appointment', 'appointments')} in the next ${UPCOMING_DAYS} days`;
    case 'admin':
      return null;
  }
}

function ComingSoonBadge() {
  return <Badge variant="outline">Coming Soon</Badge>;
}

function AreaCard({ area, enabled, count }: { area: Area; enabled: boolean; count: string | null }) {
  const headingId = `area-${area.feature}-heading`;
  return (
    <Card className={cn('flex flex-col', !enabled && 'border-dashed bg-muted/40 shadow-none')} aria-labelledby={headingId}>
      <CardHeader>
        <div className="flex items-start justify-between gap-2">
          <span
            aria-hidden="true"
            className={cn(
              'flex size-10 items-center justify-center rounded-lg [&_svg]:size-5',
              enabled ? 'bg-primary/10 text-primary' : 'bg-muted text-muted-foreground',
            )}
          >
            {area.icon}
          </span>
          {enabled ? null : <ComingSoonBadge />}
        </div>
        <CardTitle as="h3" id={headingId} className={cn('pt-2 text-base', !enabled && 'text-muted-foreground')}>
          {area.title}
        </CardTitle>
        <CardDescription>{area.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        {enabled && count ? <p className="text-2xl font-semibold tracking-tight">{count}</p> : null}
      </CardContent>
      <CardFooter className="flex-wrap">
        {area.actions.map((action, index) =>
          enabled ? (
            <Link
              key={action.to}
              to={action.to}
              className={buttonVariants({ variant: index === 0 ? 'primary' : 'outline', size: 'sm', className: 'flex-1' })}
            >
              {action.label}
            </Link>
          ) : (
            <Button key={action.to} variant="outline" size="sm" disabled className="flex-1">
              {action.label}
            </Button>
          ),
        )}
      </CardFooter>
    </Card>
  );
}

/** The /maven home's tiles (spec-working-screens.md §2 "/maven variant"). */
function Tile({ area, enabled }: { area: Area; enabled: boolean }) {
  const [primary] = area.actions;
  return (
    <Card
      className={cn(
        'relative flex items-center gap-3 p-4 transition-colors',
        enabled ? 'hover:bg-accent/50' : 'border-dashed bg-muted/40 shadow-none',
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'flex size-10 shrink-0 items-center justify-center rounded-lg [&_svg]:size-5',
          enabled ? 'bg-primary/10 text-primary' : 'bg-muted text-muted-foreground',
        )}
      >
        {area.icon}
      </span>
      <h3 className="min-w-0 flex-1 font-semibold">
        {enabled && primary ? (
          <Link
            to={primary.to}
            className="outline-none after:absolute after:inset-0 after:rounded-xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
          >
            {area.tile}
          </Link>
        ) : (
          <span className="text-muted-foreground">{area.tile}</span>
        )}
      </h3>
      {enabled ? null : <ComingSoonBadge />}
    </Card>
  );
}

function GettingStarted({ features, showAdmin }: { features: Features; showAdmin: boolean }) {
  const tips = gettingStartedTips({ features, showAdmin });
  if (tips.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle id="getting-started-heading">Getting Started</CardTitle>
      </CardHeader>
      <CardContent>
        <ul aria-labelledby="getting-started-heading" className="grid gap-3 text-sm">
          {tips.map((tip) => (
            <li key={tip.title} className="grid gap-0.5">
              <span className="font-medium">{tip.title}</span>
              <span className="text-muted-foreground">{tip.text}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function QuickActions({ links, features, canWrite }: { links: InstanceLinks; features: Features; canWrite: boolean }) {
  const actions = quickActions({ links, features, canWrite });
  // A read-only user gets no card of buttons they cannot use.
  if (actions === null) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle id="quick-actions-heading">Quick Actions</CardTitle>
      </CardHeader>
      <CardContent>
        {actions.length === 0 ? (
          <p className="text-sm text-muted-foreground">No quick actions while every feature is off.</p>
        ) : (
          <ul aria-labelledby="quick-actions-heading" className="grid gap-2">
            {actions.map((action) => (
              <li key={action.label}>
                <Link to={action.to} className={buttonVariants({ variant: 'outline', className: 'w-full justify-start' })}>
                  <PlusIcon />
                  {action.label}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function QuickStats() {
  return (
    <Card className="border-dashed bg-muted/40 shadow-none">
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <CardTitle>Quick Stats</CardTitle>
          <ComingSoonBadge />
        </div>
        <CardDescription>Jobs this week, open quotes and revenue at a glance.</CardDescription>
      </CardHeader>
    </Card>
  );
}

/**
 * The instance home: greeting, one card per area (Coming Soon when the feature is off),
 * Quick Actions, Getting Started and Recent Activity. The /maven home shows tiles instead of cards.
 */
export function InstanceDashboard({
  user,
  name,
  links,
  showAdmin,
  canWrite,
  variant = 'crm',
}: {
  user: CurrentUserView;
  /** The display name, or the username when there is none. */
  name: string;
  links: InstanceLinks;
  /** The user manages users (the Administration card, the staff tip). */
  showAdmin: boolean;
  /** The user may create and change records (the "add" actions). */
  canWrite: boolean;
  variant?: 'crm' | 'maven';
}) {
  const greeting = useGreeting();
  const { features } = user.instance;
  const areas = areasOf({ links, showAdmin, adminFeature: features.admin, canWrite });
  const canRead = user.role === 'admin' || user.permissions.canRead;
  const counts = useAreaCounts({
    customers: canRead && features.customers,
    pipeline: canRead && features.pipeline,
    calendar: canRead && features.calendar,
  });

  return (
    <div className="grid gap-8">
      <div className="grid gap-1">
        <p className="text-sm font-medium text-primary">{user.instance.displayName || user.instance.name}</p>
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">
          {greeting}, {name}
        </h1>
        <p className="text-muted-foreground">Manage your customer relationships and pipeline efficiently.</p>
      </div>

      <section aria-labelledby="areas-heading" className="grid gap-4">
        <h2 id="areas-heading" className="sr-only">
          {variant === 'maven' ? 'Go to' : 'Areas'}
        </h2>
        {variant === 'maven' ? (
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {areas.map((area) => (
              <Tile key={area.feature} area={area} enabled={area.alwaysOn || features[area.feature]} />
            ))}
          </div>
        ) : (
          <div className={cn('grid gap-4 sm:grid-cols-2', areas.length === 4 ? 'xl:grid-cols-4' : 'lg:grid-cols-3')}>
            {areas.map((area) => (
              <AreaCard
                key={area.feature}
                area={area}
                enabled={area.alwaysOn || features[area.feature]}
                count={countLabel(area.feature, counts.data)}
              />
            ))}
          </div>
        )}
      </section>

      <div className="grid items-start gap-4 lg:grid-cols-3">
        <RecentActivity className="lg:col-span-2" />
        <div className="grid gap-4">
          {variant === 'maven' ? <QuickStats /> : null}
          <QuickActions links={links} features={features} canWrite={canWrite} />
          <GettingStarted features={features} showAdmin={showAdmin} />
        </div>
      </div>
    </div>
  );
}
