import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '@/components/errors/route-error';
import { PageSpinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { RequireFeature } from '@/features/identity/components/require-feature';
import { RequireUser } from '@/features/identity/components/require-user';
import { RequireUserManager } from '@/features/identity/components/require-user-manager';
import { RequireSuperAdmin } from '@/features/platform/components/require-super-admin';
import { AppLayout, AppLayoutFallback } from './layout/app-layout';
import { CustomerLayout } from './layout/customer-layout';
import { instanceShellHandle } from './layout/instance-shell-route';
import {
  CrmEntryRedirect,
  CrmInstanceGuard,
  type InstancePage,
  SignedInInstanceRedirect,
  SubdomainRedirect,
} from './routes/instance/route-elements';

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

/** Pages for a shop's customers, without signing in (before /:subdomain/…, which they would tie with). */
const customerRoutes: RouteObject[] = [{ path: '/estimate/:token', lazy: () => import('./routes/public-estimate-page') }];

/** The old short addresses redirect; /crm takes a signed-in staff member to their dashboard. */
const redirectRoutes: RouteObject[] = [
  { path: paths.crmTemplate, element: <CrmEntryRedirect /> },
  { path: paths.legacyLogin, element: <Navigate to={paths.crmTemplate} replace /> },
];

/**
 * The screens of one instance, behind its sign-in guard (paths relative to the family's base).
 * Each screen is its own file under ./routes/instance: replace a placeholder there, not here.
 * The canonical family also has the customer forms and the audit log (/maven links to those).
 */
function instanceScreens({ home, canonical }: { home: string; canonical: boolean }): RouteObject[] {
  return [
    { path: home, lazy: () => import('./routes/instance/dashboard-page') },
    {
      element: <RequireFeature feature="pipeline" />,
      children: [
        { path: 'pipeline', lazy: () => import('./routes/instance/pipeline-page') },
        ...(canonical
          ? [
              { path: 'reports/takings', lazy: () => import('./routes/instance/takings-page') },
              { path: 'pipeline/:id/:document', lazy: () => import('./routes/instance/job-document-page') },
            ]
          : []),
      ],
    },
    {
      element: <RequireFeature feature="customers" />,
      children: [
        { path: 'customers', lazy: () => import('./routes/instance/customers-page') },
        ...(canonical
          ? [
              { path: 'customers/new', lazy: () => import('./routes/instance/customer-form-page') },
              { path: 'customers/:id/edit', lazy: () => import('./routes/instance/customer-form-page') },
              { path: 'customers/:id', lazy: () => import('./routes/instance/customer-detail-page') },
              { path: 'vehicles/:id', lazy: () => import('./routes/instance/vehicle-page') },
            ]
          : []),
      ],
    },
    ...(canonical
      ? [
          { path: 'messages', lazy: () => import('./routes/instance/messages-page') },
          { path: 'messages/templates', lazy: () => import('./routes/instance/message-templates-page') },
        ]
      : []),
    {
      element: <RequireFeature feature="calendar" />,
      children: [{ path: 'calendar', lazy: () => import('./routes/instance/calendar-page') }],
    },
    // Service requests (the pages check the feature themselves): in both families.
    { path: 'service-form', lazy: () => import('./routes/instance/service-form-page') },
    { path: 'service-list', lazy: () => import('./routes/instance/service-list-page') },
    {
      // Non-admins are sent to the instance's home. User management is theirs whatever the admin
      // feature says (an instance must be able to add staff); the feature governs the rest of
      // the Admin screen and the audit log.
      element: <RequireUserManager />,
      children: [
        { path: 'admin', lazy: () => import('./routes/instance/admin-page') },
        // Insights: admins and managers (the users who may manage users), like the server; both families.
        {
          element: <RequireFeature feature="pipeline" />,
          children: [{ path: 'insights', lazy: () => import('./routes/instance/insights-page') }],
        },
        ...(canonical
          ? [
              {
                element: <RequireFeature feature="pipeline" />,
                children: [{ path: 'admin/shop', lazy: () => import('./routes/instance/shop-settings-page') }],
              },
            ]
          : []),
        ...(canonical
          ? [
              {
                element: <RequireFeature feature="admin" />,
                children: [
                  { path: 'admin/audit', lazy: () => import('./routes/instance/audit-page') },
                  { path: 'admin/deleted', lazy: () => import('./routes/instance/deleted-records-page') },
                ],
              },
            ]
          : []),
      ],
    },
  ];
}

const SUBDOMAIN_PAGES = ['customers', 'pipeline', 'calendar', 'admin'] as const satisfies readonly InstancePage[];
const SESSION_PAGES = ['dashboard', 'pipeline', 'calendar', 'admin', 'customers'] as const;

/**
 * CRM instance screens. Static segments outrank dynamic ones, so /crm-selection,
 * /profile, /maven/… and the like are never taken for a subdomain; among equal ranks the
 * earlier route wins, so /crm/… comes before /:subdomain/….
 */
const instanceRoutes: RouteObject[] = [
  // Canonical: /crm/{instance} is the login, the rest needs a session of that instance.
  {
    path: '/crm/:instance',
    handle: instanceShellHandle,
    children: [
      { index: true, lazy: () => import('./routes/instance/login-page') },
      {
        element: <CrmInstanceGuard />,
        children: [...instanceScreens({ home: 'dashboard', canonical: true })],
      },
    ],
  },
  // /pipeline → /crm/pipeline → the signed-in user's instance.
  ...(['pipeline', 'calendar', 'admin'] as const).map((page): RouteObject => ({
    path: `/${page}`,
    element: <Navigate to={`${paths.crmTemplate}/${page}`} replace />,
  })),
  {
    path: paths.crmTemplate,
    handle: instanceShellHandle,
    element: <RequireUser />,
    children: SESSION_PAGES.map((page) => ({
      path: page,
      element: <SignedInInstanceRedirect page={page === 'dashboard' ? 'home' : page} />,
    })),
  },
  // The provider's own instance: /maven is its login, /maven/home its home with tiles.
  {
    path: paths.maven,
    handle: instanceShellHandle,
    children: [
      { index: true, lazy: () => import('./routes/instance/login-page') },
      {
        element: <RequireUser instance={RESERVED_INSTANCE_SUBDOMAIN} />,
        children: instanceScreens({ home: 'home', canonical: false }),
      },
    ],
  },
  // Signed-in pages of whatever instance the session belongs to.
  {
    handle: instanceShellHandle,
    element: <RequireUser />,
    children: [
      { path: paths.profile, lazy: () => import('./routes/profile') },
      { path: paths.settings, lazy: () => import('./routes/settings') },
      { path: '/edit-service/:id', lazy: () => import('./routes/instance/edit-service-page') },
    ],
  },
  { path: paths.register, handle: instanceShellHandle, lazy: () => import('./routes/register') },
  // By subdomain: the login is served here, the screens are the canonical ones.
  {
    path: '/:subdomain',
    handle: instanceShellHandle,
    children: [
      { index: true, element: <SubdomainRedirect page="home" /> },
      { path: 'login', lazy: () => import('./routes/instance/login-page') },
      // The shop's public request page: no sign-in (the server says whether it is on).
      { path: 'request', lazy: () => import('./routes/public-request-page') },
      ...SUBDOMAIN_PAGES.map((page) => ({ path: page, element: <SubdomainRedirect page={page} /> })),
    ],
  },
];

type LazyRoute = Extract<NonNullable<RouteObject['lazy']>, (...args: never[]) => unknown>;

/**
 * A screen whose code fails to load or to evaluate becomes a screen that throws that error
 * while rendering, so its route's error boundary shows it. Left rejected, React Router keeps
 * the route marked lazy and renders only down to the layout (the route with HydrateFallback):
 * an empty page instead of the error screen.
 */
function failSafe(lazy: LazyRoute): LazyRoute {
  return async () => {
    try {
      return await lazy();
    } catch (error) {
      return {
        Component: () => {
          throw error;
        },
      };
    }
  };
}

function withErrorBoundary(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => ({
    ...route,
    errorElement: route.errorElement ?? <RouteError />,
    ...(typeof route.lazy === 'function' ? { lazy: failSafe(route.lazy) } : {}),
    ...(route.children ? { children: withErrorBoundary(route.children) } : {}),
  })) as RouteObject[];
}

export const routes: RouteObject[] = [
  {
    element: <CustomerLayout />,
    HydrateFallback: PageSpinner,
    errorElement: <RouteError />,
    children: withErrorBoundary(customerRoutes),
  },
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
