import type { FeatureKey } from '@crm/projections/platform';
import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { useInstanceLinks } from '@/lib/use-instance-links';
import { usePageTitle } from '@/lib/use-page-title';
import { useSignedInUser } from '../hooks/use-signed-in-user';

const FEATURE_TITLES: Record<FeatureKey, string> = {
  pipeline: 'Pipeline',
  customers: 'Customers',
  calendar: 'Calendar',
  admin: 'Administration',
  serviceRequests: 'Service Requests',
};

/**
 * Shows a screen only when the instance has the feature on; otherwise says plainly that the
 * feature is not enabled for this CRM (the server answers its API with 404 too), with the
 * way home. Inside RequireUser.
 */
export function RequireFeature({ feature, children }: { feature: FeatureKey; children?: ReactNode }) {
  const user = useSignedInUser();
  if (user.instance.features[feature]) return children ?? <Outlet />;
  return <FeatureNotEnabled title={FEATURE_TITLES[feature]} instanceName={user.instance.displayName || user.instance.name} />;
}

function FeatureNotEnabled({ title, instanceName }: { title: string; instanceName: string }) {
  usePageTitle(title);
  const user = useSignedInUser();
  const links = useInstanceLinks(user.instance.subdomain);
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
      <Badge variant="outline">Not enabled</Badge>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">
        {title} is not enabled for this CRM. The provider can turn it on for {instanceName}.
      </p>
      <Link to={links.home} className={buttonVariants({ variant: 'outline' })}>
        Back to Home
      </Link>
    </section>
  );
}
