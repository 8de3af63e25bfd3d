import type { CurrentUserView } from '@crm/projections/identity';
import { Badge } from '@/components/ui/badge';
import { customerPath, jobPath, vehiclePath, type InstanceLinks } from '@/config/paths';
import { cn } from '@/lib/cn';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { useGreeting } from '../hooks/use-greeting';
import { AreaCard, Tile } from './area-cards';
import { areasOf, countLabel, type ServiceRequestsArea } from './dashboard-areas';
import { GettingStarted, QuickActions, QuickStats } from './dashboard-panels';
import { RecentActivity } from './recent-activity';

export type { ServiceRequestsArea } from './dashboard-areas';

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
