import type { InstanceStats } from '@crm/projections/contract';
import type { CrmInstanceView } from '@crm/projections/platform';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { CarIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { paths, signInPath } from '@/config/paths';
import { formatRelativeTime } from '@/features/instance-shell/utils/relative-time';
import { useCrmInstances } from '@/features/platform/api/get-crm-instances';
import { useInstanceStats } from '@/features/platform/api/get-instance-stats';
import { SuperAdminSignOutButton } from '@/features/platform/components/super-admin-sign-out-button';
import { useSuperAdminSession } from '@/features/platform/hooks/use-super-admin-session';
import { usePageTitle } from '@/lib/use-page-title';

interface Row {
  instance: CrmInstanceView;
  stats: InstanceStats | undefined;
}

function lastActivity(stats: InstanceStats | undefined, now: Date): string {
  if (!stats?.lastActivityAt) return 'No activity yet';
  return formatRelativeTime(new Date(stats.lastActivityAt), now);
}

/** The CRM product with its instances' real figures: users, jobs, customers, and when each was last used. */
function CrmProductCard() {
  const instances = useCrmInstances();
  const stats = useInstanceStats();
  const now = new Date();
  const byId = new Map((stats.data ?? []).map((row) => [row.instanceId, row]));
  // The shops first by name; the provider's own CRM last.
  const rows: Row[] = (instances.data ?? [])
    .map((instance) => ({ instance, stats: byId.get(instance.id) }))
    .sort(
      (a, b) =>
        Number(a.instance.subdomain === 'maven') - Number(b.instance.subdomain === 'maven') ||
        a.instance.displayName.localeCompare(b.instance.displayName),
    );
  const total = (key: 'users' | 'jobs' | 'customers') => rows.reduce((sum, row) => sum + (row.stats?.[key] ?? 0), 0);
  const active = rows.filter((row) => row.instance.isActive).length;

  return (
    <Card className="flex flex-col">
      <CardHeader>
        <div className="flex items-start gap-3">
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5"
          >
            <CarIcon />
          </span>
          <div className="grid gap-1">
            <CardTitle as="h2" id="crm-product-heading">
              CRM
            </CardTitle>
            <CardDescription>Customers, jobs pipeline, calendar, service requests and staff for automotive shops.</CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid flex-1 gap-4">
        {instances.isPending || stats.isPending ? <Spinner size="sm" label="Loading figures..." /> : null}
        {instances.isError || stats.isError ? (
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-dashed p-4">
            <p className="text-sm text-muted-foreground">The figures are not available right now.</p>
            <Button variant="outline" size="sm" onClick={() => void Promise.all([instances.refetch(), stats.refetch()])}>
              Try again
            </Button>
          </div>
        ) : null}
        {instances.data && stats.data ? (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[
                ['Instances', `${active} active${rows.length > active ? ` of ${rows.length}` : ''}`],
                ['Users', total('users').toLocaleString()],
                ['Jobs', total('jobs').toLocaleString()],
                ['Customers', total('customers').toLocaleString()],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg border p-3">
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="text-lg font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
            <div className="overflow-x-auto">
              <table className="w-full text-sm" aria-labelledby="crm-product-heading">
                <caption className="sr-only">Each CRM instance with its subdomain: users, jobs and last activity</caption>
                <thead>
                  <tr className="border-b text-left text-xs text-muted-foreground">
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Instance
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Users
                    </th>
                    <th scope="col" className="px-3 py-2 text-right font-medium">
                      Jobs
                    </th>
                    <th scope="col" className="py-2 pl-3 font-medium">
                      Last activity
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map(({ instance, stats: figures }) => (
                    <tr key={instance.id} className="border-b last:border-0">
                      <th scope="row" className="py-2 pr-3 text-left font-medium">
                        <Link to={signInPath(instance.subdomain)} className="hover:underline">
                          {instance.displayName}
                        </Link>
                        {/* The subdomain is the shop's address (/{subdomain}) and how the provider tells shops apart. */}
                        <span className="block text-xs font-normal text-muted-foreground">/{instance.subdomain}</span>
                        {instance.isActive ? null : (
                          <Badge variant="destructive" className="ml-2">
                            Inactive
                          </Badge>
                        )}
                      </th>
                      <td className="px-3 py-2 text-right tabular-nums">{figures?.users ?? 0}</td>
                      <td className="px-3 py-2 text-right tabular-nums">{figures?.jobs ?? 0}</td>
                      <td className="py-2 pl-3 text-muted-foreground sm:whitespace-nowrap">{lastActivity(figures, now)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        ) : null}
      </CardContent>
      <CardFooter>
        <Link to={paths.crmSelection} className={buttonVariants({ className: 'w-full sm:w-auto' })}>
          Open CRM
        </Link>
      </CardFooter>
    </Card>
  );
}

/** "/" for the super admin: the provider's product, the CRM, with each instance's figures. */
export function Component() {
  usePageTitle('Provider Dashboard');
  const session = useSuperAdminSession();
  const superAdmin = session.status === 'signed-in' ? session.superAdmin : null;
  const name = superAdmin?.displayName || superAdmin?.username;

  return (
    <div className="grid gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{name ? `Welcome, ${name}` : 'Welcome'}</h1>
          <p className="text-muted-foreground">Your shops' CRMs at a glance.</p>
        </div>
        <SuperAdminSignOutButton className="self-start" />
      </div>
      <CrmProductCard />
    </div>
  );
}
