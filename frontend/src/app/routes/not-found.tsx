import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { usePageTitle } from '@/lib/use-page-title';

export function Component() {
  usePageTitle('Page not found');
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
      <p className="text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-muted-foreground">The page you asked for does not exist or has moved.</p>
      <Link to={paths.home} className={buttonVariants({ variant: 'outline' })}>
        Go home
      </Link>
    </section>
  );
}
