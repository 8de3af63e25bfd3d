import { setDisplayTimeZone } from '@crm/projections/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { ThemeEffect } from '@/components/theme-effect';
import { Toaster } from '@/components/ui/toaster';
import { rememberInstance, type UserSession, userSessionState } from '@/features/identity/states/user-session-state';
import { queryClient } from '@/lib/query-client';
import { installErrorReveal } from '@/lib/reveal-errors';
import { appStore } from '@/lib/store';
import { LiveUpdates } from './live/live-updates';

/*
 * Every time on screen (and every time typed) is in the signed-in shop's zone, whatever the
 * browser's: the shared formatters take it from here as soon as the session names the shop.
 */
function followShopTimeZone(session: UserSession): void {
  if (session.status === 'signed-in') {
    setDisplayTimeZone(session.user.instance.timeZone);
    rememberInstance(session.user.instance.subdomain);
  } else if (session.status === 'signed-out') setDisplayTimeZone(undefined);
}
followShopTimeZone(appStore.get(userSessionState));
appStore.sub(userSessionState, () => followShopTimeZone(appStore.get(userSessionState)));
installErrorReveal();

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={appStore}>
      <QueryClientProvider client={queryClient}>
        <ThemeEffect />
        <LiveUpdates />
        {children}
        <Toaster />
      </QueryClientProvider>
    </JotaiProvider>
  );
}
