import type { ParkedEventView } from '@crm/projections/contract';
import { useLocation } from 'react-router-dom';
import { customerPath, instanceFamilyOf, instanceLinks, jobPath, paths, vehiclePath } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { AdminDashboard } from '@/features/identity/components/admin-dashboard';
import { ParkedEventsSection, streamKindOf } from '@/features/platform/components/parked-events-section';
import { PublicRequestsCard } from '@/features/platform/components/public-requests-card';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * The Admin Dashboard; the router lets only user managers in. With
 * the instance's admin feature off it is their user management only (no audit log). The shop's
 * admins also switch its public request page here, while it has service requests, and see the
 * shop's changes that could not be shown (parked events), each linked to its record.
 */
export function Component() {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const adminFeature = user.instance.features.admin;
  const subdomain = user.instance.subdomain;
  usePageTitle(adminFeature ? 'Admin Dashboard' : 'Users');
  const recordPath = (event: ParkedEventView): string | null => {
    switch (streamKindOf(event.streamId)) {
      case 'customer':
        return customerPath(subdomain, event.recordId);
      case 'job':
        return jobPath(instanceLinks(subdomain, instanceFamilyOf(pathname)).pipeline, event.recordId);
      case 'vehicle':
        return vehiclePath(subdomain, event.recordId);
      default:
        return null;
    }
  };
  return (
    <div className="grid gap-8">
      <AdminDashboard
        currentUserId={user.id}
        auditPath={adminFeature ? paths.instanceAudit(subdomain) : null}
        deletedRecordsPath={adminFeature && user.role === 'admin' ? `${paths.instanceAdmin(subdomain)}/deleted` : null}
      />
      {user.role === 'admin' && user.instance.features.serviceRequests ? <PublicRequestsCard /> : null}
      {user.role === 'admin' ? <ParkedEventsSection scope="shop" recordPath={recordPath} /> : null}
    </div>
  );
}
