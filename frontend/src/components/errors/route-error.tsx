import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';

/** Error boundary for a route: a failed lazy chunk or a render error shows this, not a blank page. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // A page that does not exist is an answer; anything else here is a fault worth reading.
  if (!notFound) console.error(error);
  return (
    <section className="mx-auto flex max-w-md flex-col items-center gap-4 py-16 text-center">
      <h1 className="text-2xl font-semibold">{notFound ? 'Page not found' : 'Something went wrong'}</h1>
      <p className="text-muted-foreground">
        {notFound ? 'The page you asked for does not exist.' : 'This page could not be shown. Reload to try again.'}
      </p>
      <div className="flex gap-2">
        <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
          Reload
        </button>
        <Link to="/" className={buttonVariants({ variant: 'outline' })}>
          Go home
        </Link>
      </div>
    </section>
  );
}
