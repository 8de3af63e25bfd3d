import type { DashboardStats } from '@crm/projections/contract';
import type { Features } from '@crm/projections/platform';
import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { PlusIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { gettingStartedTips, quickActions, type QuickActionsInput } from '../utils/dashboard-items';

export function GettingStarted({ features, showAdmin, canWrite }: { features: Features; showAdmin: boolean; canWrite: boolean }) {
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

export function QuickActions(props: QuickActionsInput) {
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
export function QuickStats({ stats, isPending, isError }: { stats: DashboardStats | undefined; isPending: boolean; isError: boolean }) {
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
