import { sessionViewSchema, type SessionView } from '@crm/projections/contract';
import type { AppDeps } from '../deps.ts';
import { access, type ApiRouter } from '../http/router.ts';
import { currentSuperAdmin } from '../platform/index.ts';
import { toCurrentUserView } from './sign-in.ts';

/**
 * The browser's session check. It answers 200 whether or not anybody is signed in: being
 * signed out is an answer, not an error (a 401 on every signed-out page would be noise in
 * the browser's console). GET /api/user/current and /api/super-admin/current keep their 401.
 */
export function registerSessionRoutes(router: ApiRouter, deps: AppDeps): void {
  router.get(
    '/api/session',
    access.public,
    async (ctx) => {
      const principal = await router.resolvePrincipal(ctx);
      const view: SessionView = { user: null, superAdmin: null };
      if (principal?.kind === 'user') view.user = toCurrentUserView(principal);
      if (principal?.kind === 'superadmin') view.superAdmin = await currentSuperAdmin(deps);
      // The check that ended the session says why, so the sign-in page can.
      if (ctx.state.sessionEnded) view.ended = ctx.state.sessionEnded;
      ctx.body = view;
    },
    { doc: { summary: 'Who is signed in (always 200: each null when nobody is)', tag: 'identity', response: sessionViewSchema } },
  );
}
