import { normalizeSubdomain } from '@crm/projections/platform';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { instanceEntry, instanceFamilyOf } from '@/config/paths';
import { useRecheckSessionOnUnauthorized } from '../hooks/use-recheck-session-on-unauthorized';
import { useUserSession } from '../hooks/use-user-session';
import { sessionInstance } from '../states/user-session-state';

/**
 * Guards instance screens: "Loading..." while the session is checked,
 * the instance's login page without a session (also once a call answers 401). With an
 * `instance` (the slug from the path), a session of another instance is sent to that
 * instance's login too, so it never sees this one's screens. Without one (profile, settings)
 * any instance's session will do. Use as a layout route (renders the Outlet) or around children.
 */
export function RequireUser({ instance, children }: { instance?: string; children?: ReactNode }) {
  const session = useUserSession();
  const { pathname } = useLocation();
  useRecheckSessionOnUnauthorized();

  if (session.status === 'unknown') return <PageSpinner label="Loading..." />;
  const wanted = instance === undefined ? undefined : normalizeSubdomain(instance);
  const family = instanceFamilyOf(pathname);
  if (session.status === 'signed-out') return <Navigate to={instanceEntry(wanted ?? sessionInstance(session), family)} replace />;
  if (wanted !== undefined && session.user.instance.subdomain !== wanted) {
    return <Navigate to={instanceEntry(wanted, family)} replace />;
  }
  return children ?? <Outlet />;
}
