import { paths } from '@/config/paths';
import { useSignedInUser } from '@/features/auth/hooks/use-signed-in-user';
import { AdminDashboard } from '@/features/users/components/admin-dashboard';
import { usePageTitle } from '@/lib/use-page-title';

/** The Admin Dashboard (spec-working-screens.md §2); the router lets only admins in. */
export function Component() {
  usePageTitle('Admin Dashboard');
  const user = useSignedInUser();
  return <AdminDashboard currentUserId={user.id} auditPath={paths.instanceAudit(user.instance.subdomain)} />;
}
