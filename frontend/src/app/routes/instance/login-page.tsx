import { normalizeSubdomain } from '@crm/projections/platform';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { instanceFamilyOf, registerPath } from '@/config/paths';
import { usePublicInstance } from '@/features/identity/api/get-public-instance';
import { InstanceLoginForm } from '@/features/identity/components/instance-login-form';
import { ApiError } from '@/lib/api-client';
import { useUserSession } from '@/features/identity/hooks/use-user-session';
import { redirectAfterLogin } from '@/features/identity/utils/redirect-after-login';
import { staffBackLink } from '@/features/identity/utils/staff-links';
import { useSuperAdminSession } from '@/features/platform/hooks/use-super-admin-session';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * Instance login at /crm/{instance}, /{subdomain}/login and /maven.
 * The title is the instance's name upper-cased (the slug until the lookup answers); an
 * unknown slug gets a clear "No such CRM" page.
 */
export function Component() {
  const params = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const named = params.instance ?? params.subdomain ?? (instanceFamilyOf(pathname) === 'maven' ? 'maven' : '');
  const instance = normalizeSubdomain(named);
  const lookup = usePublicInstance(instance);
  const name = lookup.data?.name ?? instance;
  const unknown = lookup.error instanceof ApiError && lookup.error.status === 404;
  const title = unknown ? 'No such CRM' : name ? `${name.toUpperCase()} CRM Login` : 'CRM Login';
  usePageTitle(title);
  const session = useUserSession();

  if (unknown) return <NoSuchCrm named={named} />;

  // Already signed in here (e.g. the back button after login): nothing to do on this page.
  if (session.status === 'signed-in' && session.user.instance.subdomain === instance) {
    return <Navigate to={redirectAfterLogin(pathname, instance)} replace />;
  }
  const otherInstance = session.status === 'signed-in' ? session.user.instance : null;

  return (
    <div className="flex justify-center py-4 sm:py-10">
      <Card className="w-full max-w-sm">
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
          <CardDescription>Sign in with your username and 4-digit PIN.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {otherInstance ? (
            <p role="status" className="rounded-md border bg-muted px-3 py-2 text-sm">
              You are signed in to {otherInstance.displayName || otherInstance.name}. Signing in here ends that session.
            </p>
          ) : null}
          <InstanceLoginForm
            instance={instance}
            onSuccess={(user) => void navigate(redirectAfterLogin(pathname, user.instance.subdomain), { replace: true })}
          />
        </CardContent>
        {/* Staff have no business on the provider's pages: the way on from here is an account. */}
        <CardFooter className="justify-center">
          <Link to={registerPath(instance)} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            Need an account?
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}

/** An unknown slug: says so, and leads back to the visitor's own CRM when it is known. */
function NoSuchCrm({ named }: { named: string }) {
  const back = staffBackLink({ session: useUserSession(), superAdminSignedIn: useSuperAdminSession().status === 'signed-in' });
  return (
    <div className="flex justify-center py-4 sm:py-10">
      <Card className="w-full max-w-sm">
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight">No such CRM</h1>
          <CardDescription>There is no CRM at “{named}”. Check the address, or ask your shop's admin for the right link.</CardDescription>
        </CardHeader>
        {back ? (
          <CardFooter className="justify-center">
            <Link to={back.to} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
              <ArrowLeftIcon />
              {back.label}
            </Link>
          </CardFooter>
        ) : null}
      </Card>
    </div>
  );
}
