import { instanceHomePath, paths, signInPath } from '@/config/paths';
import { sessionInstance, type UserSession } from '../states/user-session-state';

export interface BackLink {
  to: string;
  label: string;
}

/**
 * Where a page outside any instance's screens (/register, "No such CRM") leads back to. Staff go
 * to their own CRM, never to the provider's pages: a signed-in staff member to their dashboard,
 * anyone else to the sign-in of the instance named (`named`: the address's ?instance=) or last
 * used. Only the signed-in super admin goes to the provider's home. Null when nothing is known.
 */
export function staffBackLink({
  session,
  named,
  superAdminSignedIn,
}: {
  session: UserSession;
  named?: string;
  superAdminSignedIn: boolean;
}): BackLink | null {
  if (session.status === 'signed-in' && (!named || named === session.user.instance.subdomain)) {
    return { to: instanceHomePath(session.user.instance.subdomain), label: 'Back to Dashboard' };
  }
  const instance = named || sessionInstance(session);
  if (instance) return { to: signInPath(instance), label: 'Back to Sign In' };
  if (superAdminSignedIn) return { to: paths.home, label: 'Back to Home' };
  return null;
}

/**
 * Where /crm leads (and /login, which leads to /crm): a signed-in staff member to their
 * dashboard, a signed-out one whose instance is known to its sign-in, anyone else to / as
 * the platform leads (the provider's home, or its login). Null while the session is checked.
 */
export function crmEntryTarget(session: UserSession): string | null {
  if (session.status === 'unknown') return null;
  if (session.status === 'signed-in') return instanceHomePath(session.user.instance.subdomain);
  const instance = sessionInstance(session);
  return instance ? signInPath(instance) : paths.home;
}
