import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { usePageTitle } from '@/lib/use-page-title';

/** No self-service sign-up (DECISIONS.md §1): accounts come from the shop's admin. */
export function Component() {
  usePageTitle('Register');
  return (
    <div className="flex justify-center py-4 sm:py-10">
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-semibold tracking-tight">Need an account?</h1>
          <CardDescription>Accounts for this CRM are created by your shop's admin.</CardDescription>
        </CardHeader>
        <CardContent>
          <ol className="grid list-decimal gap-2 pl-5 text-sm">
            <li>Ask an admin of your shop's CRM to add you in Admin Dashboard, User Management.</li>
            <li>They give you your username and a 4-digit PIN.</li>
            <li>Sign in at your shop's CRM address, then change your PIN under Your Profile.</li>
          </ol>
        </CardContent>
        <CardFooter>
          <Link to={paths.home} className={buttonVariants({ variant: 'ghost', size: 'sm', className: '-ml-2' })}>
            <ArrowLeftIcon />
            Back to Home
          </Link>
        </CardFooter>
      </Card>
    </div>
  );
}
