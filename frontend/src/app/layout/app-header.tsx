import { useNavigation } from 'react-router-dom';
import { ThemeToggle } from '@/components/theme-toggle';
import { useAppInfo } from '@/features/app-info/api/get-app-info';
import { CarIcon } from '@/components/ui/icons';
import { PRODUCT_NAME } from '@/lib/use-page-title';
import { InstanceHeaderBar } from './instance-header-bar';
import { useInstanceShellRoute } from './instance-shell-route';

export function AppHeader() {
  const navigation = useNavigation();
  const instanceRoute = useInstanceShellRoute();
  const appInfo = useAppInfo();
  return (
    // Sticky from sm up: on a phone the navigation wraps onto rows of its own, which would take a
    // fifth of the screen from every page if they stayed in view.
    <header className="relative top-0 z-40 border-b sm:sticky print:hidden bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center justify-between gap-x-2 px-4 sm:px-6 xl:max-w-7xl xl:flex-nowrap sm:gap-x-3">
        <p className="flex h-14 min-w-0 flex-1 items-center gap-1.5 sm:gap-2 xl:flex-none">
          <span
            aria-hidden="true"
            className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground [&_svg]:size-5"
          >
            <CarIcon />
          </span>
          <span className="truncate text-base font-semibold tracking-tight">{PRODUCT_NAME}</span>
          {/* The version is the server's (the root package.json's): one source for every part. */}
          {appInfo.data?.version ? (
            <span className="rounded-full border px-2 py-0.5 text-xs text-muted-foreground">v{appInfo.data.version}</span>
          ) : null}
        </p>
        {instanceRoute ? (
          <InstanceHeaderBar route={instanceRoute} />
        ) : (
          <div className="flex items-center gap-1">
            <ThemeToggle />
          </div>
        )}
      </div>
      {/* Lazy routes load before the screen changes: show that something is happening. */}
      <div
        aria-hidden="true"
        className={navigation.state === 'loading' ? 'absolute inset-x-0 bottom-0 h-0.5 animate-pulse bg-primary' : 'hidden'}
      />
    </header>
  );
}
