import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useInstanceLinks } from '@/lib/use-instance-links';
import { useSignedInUser } from '../hooks/use-signed-in-user';
import { canManageUsers } from '../utils/user-access';

/**
 * The admin screens are for admins only. Anyone else goes to the instance's home, not to /
 * (the provider's page, which staff cannot use). Inside RequireUser.
 */
export function RequireUserManager({ children }: { children?: ReactNode }) {
  const user = useSignedInUser();
  const links = useInstanceLinks(user.instance.subdomain);
  if (!canManageUsers(user)) return <Navigate to={links.home} replace />;
  return children ?? <Outlet />;
}
