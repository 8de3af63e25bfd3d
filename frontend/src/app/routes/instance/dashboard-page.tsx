import { useLocation } from 'react-router-dom';
import { instanceFamilyOf, instanceLinks, paths } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canManageUsers, canWrite, nameOf } from '@/features/identity/utils/user-access';
import { InstanceDashboard, type ServiceRequestsArea } from '@/features/instance-shell/components/instance-dashboard';
import { useServiceRequestSummary } from '@/features/service-requests/api/get-service-request-summary';
import { usePageTitle } from '@/lib/use-page-title';

/** The instance home: /crm/{instance}/dashboard (and /{subdomain}), and /maven/home with the Maven tiles. */
export function Component() {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const family = instanceFamilyOf(pathname);
  usePageTitle(family === 'maven' ? 'Home' : 'Dashboard');
  const { subdomain, features } = user.instance;
  // The service requests' screens are in the canonical family; the Maven tiles keep to their four.
  const withRequests = family === 'crm';
  const canRead = user.role === 'admin' || user.permissions.canRead;
  const summary = useServiceRequestSummary(subdomain, withRequests && features.serviceRequests && canRead);
  const serviceRequests: ServiceRequestsArea | null = withRequests
    ? {
        list: paths.instanceServiceList(subdomain),
        form: paths.instanceServiceForm(subdomain),
        open: summary.data?.open ?? null,
        newPublic: summary.data?.newPublic ?? 0,
      }
    : null;
  return (
    <InstanceDashboard
      user={user}
      name={nameOf(user)}
      links={instanceLinks(subdomain, family)}
      showAdmin={canManageUsers(user)}
      canWrite={canWrite(user)}
      variant={family}
      serviceRequests={serviceRequests}
    />
  );
}
