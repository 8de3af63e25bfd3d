import { Outlet } from 'react-router-dom';
import { ThemeToggle } from '@/components/theme-toggle';

/**
 * Around the pages a shop sends to its customers (the estimate link): the page is the
 * shop's, so it carries neither the software's name and version nor the provider's footer,
 * and no sign-in. The screen names the shop itself.
 */
export function CustomerLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <div className="mx-auto flex w-full max-w-3xl justify-end px-4 pt-3 print:hidden sm:px-6">
        <ThemeToggle />
      </div>
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 pt-2 pb-10 outline-none sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}
