import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAppInfo } from '@/features/app-info/api/get-app-info';
import { useCrmInstances } from '@/features/platform/api/get-crm-instances';
import { CreateCrmInstanceDialog } from '@/features/platform/components/create-crm-instance-dialog';
import { CrmInstanceCard, CrmTemplateCard } from '@/features/platform/components/crm-instance-card';
import { ParkedEventsSection } from '@/features/platform/components/parked-events-section';
import { ProviderInstanceSection } from '@/features/platform/components/provider-instance-section';
import { selectableInstances } from '@/features/platform/utils/selectable-instances';
import { publicOrigin } from '@/features/platform/utils/shop-addresses';
import { SuperAdminSignOutButton } from '@/features/platform/components/super-admin-sign-out-button';
import { usePageTitle } from '@/lib/use-page-title';
import { BackLink } from '@/components/back-link';

function InstanceList() {
  const { data, isPending, isError, refetch, isFetching } = useCrmInstances();
  const instances = data ? selectableInstances(data) : [];

  return (
    <div className="grid gap-4">
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <li>
          <CrmTemplateCard />
        </li>
        {instances.map((instance) => (
          <li key={instance.id}>
            <CrmInstanceCard instance={instance} />
          </li>
        ))}
      </ul>
      {isPending ? <Spinner label="Loading CRM instances..." /> : null}
      {isError ? (
        <div className="flex flex-wrap items-center gap-3">
          <Alert className="flex-1">Could not load the CRM instances.</Alert>
          <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
            Try again
          </Button>
        </div>
      ) : null}
      {data && instances.length === 0 ? (
        <p className="text-sm text-muted-foreground">No CRM instances yet. Create one to get started.</p>
      ) : null}
    </div>
  );
}

/** Choose a CRM instance or create one. */
export function Component() {
  usePageTitle('Select a CRM');
  const { data: appInfo } = useAppInfo();
  return (
    <div className="grid gap-6">
      <BackLink to={paths.home}>Back</BackLink>
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Select a CRM</h1>
          <p className="text-muted-foreground">Open a shop's CRM, or set up a new one.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <CreateCrmInstanceDialog origin={publicOrigin(window.location, appInfo?.host)} />
          <Link to={paths.crmBuilder} className={buttonVariants({ variant: 'outline' })}>
            Open CRM Builder
          </Link>
          <SuperAdminSignOutButton>Logout</SuperAdminSignOutButton>
        </div>
      </div>
      <section aria-labelledby="instances-heading" className="grid gap-3">
        <h2 id="instances-heading" className="text-lg font-semibold">
          CRM instances
        </h2>
        <InstanceList />
      </section>
      <ProviderInstanceSection />
      <ParkedEventsSection />
    </div>
  );
}
