import { normalizeSubdomain } from '@crm/projections/platform';
import { Link, useSearchParams } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { useUserSession } from '@/features/identity/hooks/use-user-session';
import { staffBackLink } from '@/features/identity/utils/staff-links';
import { whereAdminsAddStaff } from '@/features/instance-shell/utils/nav-items';
import { useSuperAdminSession } from '@/features/platform/hooks/use-super-admin-session';
import { usePageTitle } from '@/lib/use-page-title';

/**
 * No self-service sign-up: accounts come from the shop's admin. It leads back
 * to the CRM the visitor came from (?instance=, or the session's), never to the provider's pages
 * for staff.
 */
export function Component() {
  usePageTitle('Register');
  const [searchParams] = useSearchParams();
  const named = normalizeSubdomain(searchParams.get('instance') ?? '') || undefined;
  const back = staffBackLink({ session: useUserSession(), named, superAdminSignedIn: useSuperAdminSession().status === 'signed-in' });
  return (
    <div className="flex justify-center py-4 sm:py-10">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Need an account?</h1>
          <CardDescription>Accounts for this CRM are created by your shop's admin.</CardDescription>
        </CardHeader>
        <CardContent>
          <ol className="grid list-decimal gap-2 pl-5 text-sm">
            <li>Ask an admin of your shop's CRM to add you under {whereAdminsAddStaff}.</li>
            <li>They give you your username and a 4-digit PIN.</li>
            <li>Sign in at your shop's CRM address, then change your PIN under Your Profile.</li>
          </ol>
        </CardContent>
        {back ? (
          <CardFooter>
            <Link to={back.to} className={buttonVariants({ variant: 'ghost', size: 'sm', className: '-ml-2' })}>
              <ArrowLeftIcon />
              {back.label}
            </Link>
          </CardFooter>
        ) : null}
      </Card>
    </div>
  );
}
