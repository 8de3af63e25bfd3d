import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useRecheckSessionOnUnauthorized } from '../hooks/use-recheck-session-on-unauthorized';
import { useSuperAdminSession } from '../hooks/use-super-admin-session';

/**
 * Guards super admin screens: a spinner while the session is checked, the login page
 * without a session (also once a call answers 401). Use as a layout route (renders the Outlet) or around children.
 */
export function RequireSuperAdmin({ children }: { children?: ReactNode }) {
  const session = useSuperAdminSession();
  useRecheckSessionOnUnauthorized();
  if (session.status === 'unknown') return <PageSpinner />;
  if (session.status === 'signed-out') return <Navigate to={paths.superAdminLogin} replace />;
  return children ?? <Outlet />;
}
