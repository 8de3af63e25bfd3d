import { QueryClientProvider } from '@tanstack/react-query';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { ThemeEffect } from '@/components/theme-effect';
import { Toaster } from '@/components/ui/toaster';
import { queryClient } from '@/lib/query-client';
import { appStore } from '@/lib/store';
import { LiveUpdates } from './live/live-updates';

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
