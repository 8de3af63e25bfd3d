import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { AppFooter } from './app-footer';
import { AppHeader } from './app-header';

function AppShell({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <AppHeader />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-10">
        {children}
      </main>
      <AppFooter />
    </div>
  );
}

/** Header, main area and footer around every screen. */
export function AppLayout() {
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

/** Shown while the first screen's code loads. */
export function AppLayoutFallback() {
  return (
    <AppShell>
      <PageSpinner />
    </AppShell>
  );
}
