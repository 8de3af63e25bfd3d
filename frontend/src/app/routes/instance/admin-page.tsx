import { paths } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { AdminDashboard } from '@/features/identity/components/admin-dashboard';
import { PublicRequestsCard } from '@/features/platform/components/public-requests-card';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * The Admin Dashboard; the router lets only user managers in. With
 * the instance's admin feature off it is their user management only (no audit log). The shop's
 * admins also switch its public request page here, while it has service requests.
 */
export function Component() {
  const user = useSignedInUser();
  const adminFeature = user.instance.features.admin;
  usePageTitle(adminFeature ? 'Admin Dashboard' : 'Users');
  return (
    <div className="grid gap-8">
      <AdminDashboard
        currentUserId={user.id}
        auditPath={adminFeature ? paths.instanceAudit(user.instance.subdomain) : null}
        deletedRecordsPath={adminFeature && user.role === 'admin' ? `${paths.instanceAdmin(user.instance.subdomain)}/deleted` : null}
      />
      {user.role === 'admin' && user.instance.features.serviceRequests ? <PublicRequestsCard /> : null}
    </div>
  );
}
