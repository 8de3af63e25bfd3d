import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { CarIcon, SparklesIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { SuperAdminSignOutButton } from '@/features/platform/components/super-admin-sign-out-button';
import { useSuperAdminSession } from '@/features/platform/hooks/use-super-admin-session';
import { usePageTitle } from '@/lib/use-page-title';

function ComingSoonCard() {
  return (
    <Card className="flex flex-col border-dashed bg-muted/40 shadow-none">
      <CardHeader>
        <div className="flex items-center justify-between gap-2">
          <span
            aria-hidden="true"
            className="flex size-10 items-center justify-center rounded-lg bg-muted text-muted-foreground [&_svg]:size-5"
          >
            <SparklesIcon />
          </span>
          <Badge variant="outline">Coming Soon</Badge>
        </div>
        <CardTitle className="pt-2 text-muted-foreground">Coming Soon</CardTitle>
        <CardDescription>Another product for your shops is on the way.</CardDescription>
      </CardHeader>
    </Card>
  );
}

/** "/" for the super admin: the provider's products (spec-platform.md §2). */
export function Component() {
  usePageTitle('Provider Dashboard');
  const session = useSuperAdminSession();
  const superAdmin = session.status === 'signed-in' ? session.superAdmin : null;
  const name = superAdmin?.displayName || superAdmin?.username;

  return (
    <div className="grid gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{name ? `Welcome, ${name}` : 'Welcome'}</h1>
          <p className="text-muted-foreground">Choose a product to manage for your shops.</p>
        </div>
        <SuperAdminSignOutButton className="self-start" />
      </div>

      <section aria-labelledby="products-heading" className="grid gap-4">
        <h2 id="products-heading" className="sr-only">
          Products
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <Card className="flex flex-col">
            <CardHeader>
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5"
              >
                <CarIcon />
              </span>
              <CardTitle className="pt-2">CRM</CardTitle>
              <CardDescription>Customers, jobs pipeline, calendar and staff for automotive parts and service shops.</CardDescription>
            </CardHeader>
            <CardContent className="flex-1" />
            <CardFooter>
              <Link to={paths.crmSelection} className={buttonVariants({ className: 'w-full' })}>
                Open CRM
              </Link>
            </CardFooter>
          </Card>
          <ComingSoonCard />
          <ComingSoonCard />
        </div>
      </section>
    </div>
  );
}
