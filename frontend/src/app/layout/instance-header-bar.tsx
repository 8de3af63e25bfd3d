import { normalizeSubdomain } from '@crm/projections/platform';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { ThemeToggle } from '@/components/theme-toggle';
import { instanceEntry, instanceLinks, paths, registerPath } from '@/config/paths';
import { AccountMenu } from '@/features/identity/components/account-menu';
import { useUserSession } from '@/features/identity/hooks/use-user-session';
import { sessionInstance } from '@/features/identity/states/user-session-state';
import { canManageUsers, canRead, canWrite } from '@/features/identity/utils/user-access';
import { InstanceNav } from '@/features/instance-shell/components/instance-nav';
import { navItems } from '@/features/instance-shell/utils/nav-items';
import { useServiceRequestSummary } from '@/features/service-requests/api/get-service-request-summary';
import { useInstanceShellRoute } from './instance-shell-route';

/**
 * The header's right side on instance screens: the navigation and account menu when signed
 * in, Login and Register links when not. Below 1280 px the navigation gets a row of its own
 * below the title: an admin's ten links beside the title and the account menu would not fit
 * and the last ones (Admin) would hide in a sideways scroll.
 */
export function InstanceHeaderBar({ route }: { route: NonNullable<ReturnType<typeof useInstanceShellRoute>> }) {
  const session = useUserSession();
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  // New requests from the shop's public page: a badge on Service Requests.
  const signedIn = session.status === 'signed-in' ? session.user : null;
  const summary = useServiceRequestSummary(
    signedIn?.instance.subdomain ?? '',
    Boolean(signedIn?.instance.features.serviceRequests && canRead(signedIn)),
  );

  if (session.status === 'signed-in') {
    const { user } = session;
    const links = instanceLinks(user.instance.subdomain, route.family);
    const newPublic = summary.data?.newPublic ?? 0;
    const items = navItems({
      links,
      family: route.family,
      features: user.instance.features,
      showAdmin: canManageUsers(user),
    }).map((item) =>
      item.to === links.serviceList && newPublic > 0
        ? { ...item, badge: newPublic, badgeLabel: `${newPublic} new from the public request page` }
        : item,
    );
    // Insights (of the pipeline's jobs) for admins and managers, before Admin, in either family.
    if (canManageUsers(user) && user.instance.features.pipeline) {
      const admin = items.findIndex((item) => item.to === links.admin);
      items.splice(admin < 0 ? items.length : admin, 0, { label: 'Insights', to: links.insights });
    }
    // The day's takings for who takes payments, and the shop's settings (documents, rates) for its admins.
    if (route.family === 'crm' && user.instance.features.pipeline) {
      const admin = items.findIndex((item) => item.to === links.admin);
      const reports = [
        ...(canWrite(user) ? [{ label: 'Takings', to: `${links.entry}/reports/takings` }] : []),
        ...(user.role === 'admin' ? [{ label: 'Shop', to: `${links.admin}/shop` }] : []),
      ];
      items.splice(admin < 0 ? items.length : admin, 0, ...reports);
    }
    // The shop's outbox, for everyone who reads (the canonical family has the screen).
    if (route.family === 'crm' && canRead(user)) {
      const admin = items.findIndex((item) => item.to === links.admin);
      items.splice(admin < 0 ? items.length : admin, 0, { label: 'Messages', to: `${links.entry}/messages` });
    }
    return (
      <>
        <InstanceNav
          items={items}
          pathname={pathname}
          className="order-last -mx-4 basis-[calc(100%+2rem)] border-t px-3 py-1.5 sm:-mx-6 sm:basis-[calc(100%+3rem)] sm:px-5 xl:order-none xl:mx-0 xl:basis-auto xl:flex-1 xl:border-0 xl:p-0"
        />
        <div className="flex items-center gap-1">
          <ThemeToggle />
          <AccountMenu user={user} />
        </div>
      </>
    );
  }

  // Login goes to the instance named by the path (or /register's ?instance=), or the last one
  // used, rather than the provider's page that the bare /login leads to; Register names it too.
  const named = pathname === paths.register ? normalizeSubdomain(searchParams.get('instance') ?? '') || undefined : undefined;
  const instance = route.slug ?? named ?? sessionInstance(session);
  const login = instance ? instanceEntry(instance, route.family) : paths.legacyLogin;
  // The shop's public request page is for its customers: staff sign-in links do not belong there.
  const publicPage = route.slug !== undefined && /^\/[^/]+\/request\/?$/.test(pathname);
  return (
    <div className="flex items-center gap-0.5 sm:gap-1">
      <ThemeToggle />
      {session.status === 'signed-out' && !publicPage ? (
        <>
          <HeaderLink to={login} pathname={pathname}>
            Login
          </HeaderLink>
          <HeaderLink to={registerPath(instance)} pathname={pathname}>
            Register
          </HeaderLink>
        </>
      ) : null}
    </div>
  );
}

// Narrower than a small button on phones, so the product title keeps its room.
const headerLinkClasses =
  'inline-flex h-8 items-center rounded-md px-1.5 text-sm font-medium whitespace-nowrap transition-colors sm:px-3 ' +
  'hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring';

function HeaderLink({ to, pathname, children }: { to: string; pathname: string; children: string }) {
  if (to.split('?')[0] === pathname) {
    return (
      <span aria-current="page" className={`${headerLinkClasses} bg-accent`}>
        {children}
      </span>
    );
  }
  return (
    <Link to={to} className={headerLinkClasses}>
      {children}
    </Link>
  );
}
