import type { CurrentUserView } from '@crm/projections/identity';
import type { SuperAdminView } from '@crm/projections/platform';
import type { AppDeps } from '../deps.ts';
import { access, type ApiRouter } from '../http/router.ts';
import { currentSuperAdmin } from '../platform/index.ts';
import { toCurrentUserView } from './sign-in.ts';

/** GET /api/session: who is signed in. */
export interface SessionView {
  user: CurrentUserView | null;
  superAdmin: SuperAdminView | null;
}

/**
 * The browser's session check. It answers 200 whether or not anybody is signed in: being
 * signed out is an answer, not an error (a 401 on every signed-out page would be noise in
 * the browser's console). GET /api/user/current and /api/super-admin/current keep their 401.
 */
export function registerSessionRoutes(router: ApiRouter, deps: AppDeps): void {
  router.get('/api/session', access.public, async (ctx) => {
    const principal = await router.resolvePrincipal(ctx);
    const view: SessionView = { user: null, superAdmin: null };
    if (principal?.kind === 'user') view.user = toCurrentUserView(principal);
    if (principal?.kind === 'superadmin') view.superAdmin = await currentSuperAdmin(deps);
    ctx.body = view;
  });
}
