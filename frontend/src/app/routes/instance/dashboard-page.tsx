import { useLocation } from 'react-router-dom';
import { instanceFamilyOf, instanceLinks } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canManageUsers, canWrite, nameOf } from '@/features/identity/utils/user-access';
import { InstanceDashboard } from '@/features/instance-shell/components/instance-dashboard';
import { usePageTitle } from '@/lib/use-page-title';

/** The instance home: /crm/{instance}/dashboard, and /maven/home with the Maven tiles. */
export function Component() {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const family = instanceFamilyOf(pathname);
  usePageTitle(family === 'maven' ? 'Home' : 'Dashboard');
  return (
    <InstanceDashboard
      user={user}
      name={nameOf(user)}
      links={instanceLinks(user.instance.subdomain, family)}
      showAdmin={canManageUsers(user)}
      canWrite={canWrite(user)}
      variant={family}
    />
  );
}
