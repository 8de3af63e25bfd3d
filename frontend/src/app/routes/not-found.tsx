import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useUserSession } from '@/features/identity/hooks/use-user-session';
import { staffBackLink } from '@/features/identity/utils/staff-links';
import { useSuperAdminSession } from '@/features/platform/hooks/use-super-admin-session';
import { usePageTitle } from '@/lib/use-page-title';

/** 404: "Go home" leads staff to their own shop (its dashboard, or its sign-in), the provider to theirs. */
export function Component() {
  usePageTitle('Page not found');
  const back = staffBackLink({ session: useUserSession(), superAdminSignedIn: useSuperAdminSession().status === 'signed-in' });
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
      <p className="text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">The page you asked for does not exist or has moved.</p>
      <Link to={back?.to ?? paths.home} className={buttonVariants({ variant: 'outline' })}>
        Go home
      </Link>
    </section>
  );
}
