import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '@/components/errors/route-error';
import { paths } from '@/config/paths';
import { RequireSuperAdmin } from '@/features/super-admin/components/require-super-admin';
import { AppLayout, AppLayoutFallback } from './layout/app-layout';

/*
 * Screens are lazy-loaded: each module under ./routes exports `Component`.
 * Every route gets its own error boundary, so a failure stays inside the layout.
 */

/** Provider (super admin) screens. */
const platformRoutes: RouteObject[] = [
  { path: paths.superAdminLogin, lazy: () => import('./routes/super-admin-login') },
  {
    element: <RequireSuperAdmin />,
    children: [
      { path: paths.home, lazy: () => import('./routes/provider-dashboard') },
      { path: paths.crmSelection, lazy: () => import('./routes/crm-selection') },
      { path: paths.crmBuilder, lazy: () => import('./routes/crm-builder') },
    ],
  },
];

/** Redirects named in spec-platform.md §2. */
const redirectRoutes: RouteObject[] = [
  { path: paths.crmTemplate, element: <Navigate to={paths.home} replace /> },
  { path: paths.legacyLogin, element: <Navigate to={paths.crmTemplate} replace /> },
];

/**
 * CRM instance screens: /crm/:instance (login), /crm/:instance/dashboard, …, /maven/*,
 * /:subdomain/*. Add them here (more specific paths win regardless of order).
 */
const instanceRoutes: RouteObject[] = [];

function withErrorBoundary(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => ({
    ...route,
    errorElement: route.errorElement ?? <RouteError />,
    ...(route.children ? { children: withErrorBoundary(route.children) } : {}),
  })) as RouteObject[];
}

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    HydrateFallback: AppLayoutFallback,
    errorElement: <RouteError />,
    children: withErrorBoundary([
      ...platformRoutes,
      ...redirectRoutes,
      ...instanceRoutes,
      { path: '*', lazy: () => import('./routes/not-found') },
    ]),
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
