import type { DashboardStats } from '@crm/projections/contract';
import type { CurrentUserView } from '@crm/projections/identity';
import type { FeatureKey, Features } from '@crm/projections/platform';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { CalendarDaysIcon, MailIcon, PlusIcon, ShieldCheckIcon, SquareKanbanIcon, UsersIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { customerPath, jobPath, vehiclePath, type InstanceLinks } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { useGreeting } from '../hooks/use-greeting';
import { type DashboardAction, gettingStartedTips, quickActions, type QuickActionsInput } from '../utils/dashboard-items';
import { RecentActivity } from './recent-activity';

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
 * The dashboard's areas: Pipeline, Customers, Calendar, Service Requests, and Administration
 * for user managers (as user management alone when the admin feature is off). No "add"
 * action for a read-only user.
 */
function areasOf({
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
function countLabel(feature: FeatureKey, stats: DashboardStats | undefined, serviceRequests: ServiceRequestsArea | null): string | null {
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

function ComingSoonBadge() {
  return <Badge variant="outline">Coming Soon</Badge>;
}

function AreaCard({ area, enabled, count, note }: { area: Area; enabled: boolean; count: string | null; note?: ReactNode }) {
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
          {enabled ? note : <ComingSoonBadge />}
        </div>
        <CardTitle as="h3" id={headingId} className={cn('pt-2 text-base', !enabled && 'text-muted-foreground')}>
          {area.title}
        </CardTitle>
        <CardDescription>{area.description}</CardDescription>
      </CardHeader>
      <CardContent className="flex-1">
        {enabled && count ? (
          <p className="text-2xl font-semibold tracking-tight" data-testid={`count-${area.feature}`}>
            {count}
          </p>
        ) : null}
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

/** The /maven home's tiles. */
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

function GettingStarted({ features, showAdmin, canWrite }: { features: Features; showAdmin: boolean; canWrite: boolean }) {
  const tips = gettingStartedTips({ features, showAdmin, canWrite });
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

function QuickActions(props: QuickActionsInput) {
  const actions = quickActions(props);
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

const dollars = (amount: number) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(amount);

/** The /maven home's figures: jobs by stage, quotes this week, revenue invoiced this month (the shop's week and month). */
function QuickStats({ stats, isPending, isError }: { stats: DashboardStats | undefined; isPending: boolean; isError: boolean }) {
  const byStage = stats?.jobsByStage ?? null;
  const most = Math.max(1, ...(byStage ?? []).map((row) => row.count));
  return (
    <Card>
      <CardHeader>
        <CardTitle id="quick-stats-heading">Quick Stats</CardTitle>
        <CardDescription>This week and this month in the shop&apos;s time zone ({stats?.timeZone ?? '…'}).</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isPending ? <Spinner size="sm" label="Loading figures..." /> : null}
        {isError ? <p className="text-sm text-muted-foreground">The figures are not available right now.</p> : null}
        {stats && !byStage ? <p className="text-sm text-muted-foreground">The pipeline is not enabled for this CRM.</p> : null}
        {stats && byStage ? (
          <>
            <dl className="grid grid-cols-2 gap-3">
              <div className="rounded-lg border p-3">
                <dt className="text-xs text-muted-foreground">Quotes this week</dt>
                <dd className="text-xl font-semibold" data-testid="stat-quotes">
                  {stats.quotesThisWeek?.count ?? 0}
                </dd>
                <dd className="text-xs text-muted-foreground">{dollars(stats.quotesThisWeek?.total ?? 0)} quoted</dd>
              </div>
              <div className="rounded-lg border p-3">
                <dt className="text-xs text-muted-foreground">Invoiced this month</dt>
                <dd className="text-xl font-semibold" data-testid="stat-revenue">
                  {dollars(stats.revenueThisMonth ?? 0)}
                </dd>
              </div>
            </dl>
            <div className="grid gap-1.5">
              <h3 className="text-sm font-medium" id="jobs-by-stage-heading">
                Jobs by stage
              </h3>
              <ul aria-labelledby="jobs-by-stage-heading" className="grid gap-1 text-sm">
                {byStage.map((row) => (
                  <li key={row.stage} className="grid grid-cols-[7.5rem_1fr_2rem] items-center gap-2">
                    <span className="truncate text-muted-foreground">{row.stage}</span>
                    <span aria-hidden="true" className="h-2 rounded-full bg-muted">
                      <span className="block h-2 rounded-full bg-primary" style={{ width: `${(row.count / most) * 100}%` }} />
                    </span>
                    <span className="text-right tabular-nums">{row.count}</span>
                  </li>
                ))}
              </ul>
            </div>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}

/**
 * The instance home: greeting (by the shop's clock), one card per area with its count from
 * the server (Coming Soon when the feature is off), Quick Actions, Getting Started and Recent
 * Activity. The /maven home shows tiles and the Quick Stats instead of cards.
 */
export function InstanceDashboard({
  user,
  name,
  links,
  showAdmin,
  canWrite,
  variant = 'crm',
  serviceRequests = null,
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
  /** The service requests' card, when this family has their screens. */
  serviceRequests?: ServiceRequestsArea | null;
}) {
  const greeting = useGreeting(user.instance.timeZone);
  const { features } = user.instance;
  const areas = areasOf({ links, showAdmin, adminFeature: features.admin, canWrite, serviceRequests });
  const stats = useDashboardStats(variant === 'maven');

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
          // Four cards in one row on wide screens; three or five in rows of three (no card alone in a row of four).
          <div className={cn('grid gap-4 sm:grid-cols-2', areas.length === 4 ? 'xl:grid-cols-4' : 'lg:grid-cols-3')}>
            {areas.map((area) => (
              <AreaCard
                key={area.feature}
                area={area}
                enabled={area.alwaysOn || features[area.feature]}
                count={countLabel(area.feature, stats.data, serviceRequests)}
                note={
                  area.feature === 'serviceRequests' && serviceRequests && serviceRequests.newPublic > 0 ? (
                    <Badge>{serviceRequests.newPublic} new online</Badge>
                  ) : null
                }
              />
            ))}
          </div>
        )}
      </section>

      <div className="grid items-start gap-4 lg:grid-cols-3">
        <RecentActivity
          className="lg:col-span-2"
          linkOf={(item) => {
            if (!item.entityId) return null;
            if (item.entityType === 'job' && features.pipeline) return jobPath(links.pipeline, item.entityId);
            if (item.entityType === 'customer' && features.customers) return customerPath(user.instance.subdomain, item.entityId);
            if (item.entityType === 'vehicle' && features.customers) return vehiclePath(user.instance.subdomain, item.entityId);
            return null;
          }}
        />
        <div className="grid gap-4">
          {variant === 'maven' ? <QuickStats stats={stats.data} isPending={stats.isPending} isError={stats.isError} /> : null}
          <QuickActions
            links={links}
            features={features}
            canWrite={canWrite}
            {...(serviceRequests ? { serviceForm: serviceRequests.form } : {})}
          />
          <GettingStarted features={features} showAdmin={showAdmin} canWrite={canWrite} />
        </div>
      </div>
    </div>
  );
}
