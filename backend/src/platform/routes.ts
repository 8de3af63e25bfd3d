import {
  createInstanceInput,
  parkedChangesQuery,
  publicRequestsSettingInput,
  setInstanceActiveInput,
  superAdminLoginInput,
  type AppInfo,
  type PublicRequestsSetting,
  type PublicInstanceView,
} from '@crm/projections/contract';
import { normalizeSubdomain, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { catchUpAsyncReadModels, type AppDeps } from '../deps.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiRouter } from '../http/router.ts';
import { PLATFORM_DOCS as DOCS } from './route-docs.ts';
import { createSharedRateLimiter } from '../http/rate-limit-store.ts';
import { endSession, startSession } from '../http/session-lifecycle.ts';
import { parseInput } from '../http/validation.ts';
import { systemContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, UnauthorizedError } from '../shared/errors.ts';
import { reservationHolder } from '../shared/reservations.ts';
import { subdomainStream } from './instance-decider.ts';
import {
  createInstance,
  findInstanceBySubdomain,
  getInstance,
  getInstanceForEdit,
  getInstanceHistory,
  listInstances,
  recordInstance,
  type FirstAdminRecorder,
  setInstanceActive,
  updateInstance,
} from './instances.ts';
import { instanceStats } from './instance-stats.ts';
import { listParked, parkedChangesOf } from './parked-events.ts';
import { currentSuperAdmin, signInSuperAdmin } from './super-admin.ts';
import { commandContext } from '../http/command-context.ts';

/** Provider level: super admin sign-in and CRM instances. */
export function registerPlatformRoutes(router: ApiRouter, deps: AppDeps, version: string, recordFirstAdmin: FirstAdminRecorder): void {
  const signInLimit = createSharedRateLimiter(deps.knex, 'super-admin-sign-in', {
    windowMs: 60_000,
    max: deps.config.SIGN_IN_RATE_LIMIT,
  });

  router.get(
    '/api/app-info',
    access.public,
    async (ctx) => {
      const info: AppInfo = { version, providerName: deps.config.PROVIDER_NAME, host: deps.config.PUBLIC_HOST ?? ctx.host };
      ctx.body = info;
    },
    { doc: DOCS.appInfo },
  );

  // Public so the login page can name its instance or say there is no such CRM.
  router.get(
    '/api/instances/:subdomain',
    access.public,
    async (ctx) => {
      const instance = await findInstanceBySubdomain(deps.knex, normalizeSubdomain(ctx.params.subdomain ?? ''));
      if (!instance) throw new NotFoundError('No such CRM');
      const view: PublicInstanceView = {
        subdomain: instance.subdomain,
        name: instance.name,
        displayName: instance.displayName,
        isActive: instance.isActive,
      };
      ctx.body = view;
    },
    { doc: DOCS.publicInstance },
  );

  router.post(
    '/api/super-admin/login',
    access.public,
    async (ctx) => {
      await signInLimit.check(ctx);
      const input = parseInput(superAdminLoginInput, ctx.request.body);
      const admin = await signInSuperAdmin(deps, input.username, input.password, commandContext(ctx, deps, null));
      if (!admin) throw new UnauthorizedError('Invalid username or password');
      await startSession(ctx, { kind: 'superadmin', superAdminId: admin.superAdminId });
      ctx.body = { id: admin.superAdminId, username: admin.username, displayName: admin.displayName };
    },
    { doc: DOCS.superAdminLogin },
  );

  router.get(
    '/api/super-admin/current',
    access.superAdmin,
    async (ctx) => {
      const admin = await currentSuperAdmin(deps);
      if (!admin) throw new UnauthorizedError();
      ctx.body = admin;
    },
    { doc: DOCS.superAdminCurrent },
  );

  router.post('/api/super-admin/logout', access.public, async (ctx) => endSession(ctx), { doc: DOCS.superAdminLogout });

  router.patch(
    '/api/crm-instances/:instanceId',
    access.superAdmin,
    async (ctx) => {
      const input = parseInput(setInstanceActiveInput, ctx.request.body);
      ctx.body = await setInstanceActive(deps, ctx.params.instanceId ?? '', input.isActive, commandContext(ctx, deps, null));
    },
    { doc: DOCS.setActive },
  );

  // The shop's own admins switch its public request page (part of the service requests: 404 while those are off).
  const publicRequestsOf = (instance: { subdomain: string; publicRequests: boolean }): PublicRequestsSetting => ({
    enabled: instance.publicRequests,
    path: `/${instance.subdomain}/request`,
  });
  for (const path of ['/api/admin/public-requests', '/api/:instance/admin/public-requests']) {
    router.get(
      path,
      access.admin,
      async (ctx) => {
        ctx.body = publicRequestsOf(await getInstance(deps.knex, userOf(ctx).instance.id));
      },
      { feature: 'serviceRequests', doc: DOCS.publicRequests },
    );
    router.put(
      path,
      access.admin,
      async (ctx) => {
        const { enabled } = parseInput(publicRequestsSettingInput, ctx.request.body);
        const instanceId = userOf(ctx).instance.id;
        ctx.body = publicRequestsOf(
          await updateInstance(deps, instanceId, { publicRequests: enabled }, commandContext(ctx, deps, instanceId)),
        );
      },
      { feature: 'serviceRequests', doc: DOCS.setPublicRequests },
    );
  }

  // Parked events: the shop's own admins see theirs; every user sees a notice on a record that has one.
  for (const base of ['/api', '/api/:instance']) {
    router.get(
      `${base}/admin/parked-events`,
      access.admin,
      async (ctx) => {
        ctx.body = await listParked(deps, userOf(ctx).instance.id);
      },
      { doc: DOCS.shopParked },
    );
    router.get(
      `${base}/parked-changes`,
      access.signedIn,
      async (ctx) => {
        const { record } = parseInput(parkedChangesQuery, ctx.query);
        ctx.body = await parkedChangesOf(deps, userOf(ctx).instance.id, record);
      },
      { doc: DOCS.recordParked },
    );
  }

  // Before `/:instanceId`, which would take it for an id.
  router.get(
    '/api/crm-instances/parked-events',
    access.superAdmin,
    async (ctx) => {
      ctx.body = await listParked(deps, null);
    },
    { doc: DOCS.parked },
  );

  // Before `/:instanceId`, which would take "stats" for an id.
  router.get(
    '/api/crm-instances/stats',
    access.superAdmin,
    async (ctx) => {
      await catchUpAsyncReadModels(deps);
      ctx.body = await instanceStats(deps.knex);
    },
    { doc: DOCS.stats },
  );

  router.get(
    '/api/crm-instances/:instanceId',
    access.superAdmin,
    async (ctx) => {
      sendRecord(ctx, await getInstanceForEdit(deps, ctx.params.instanceId));
    },
    { doc: DOCS.show },
  );

  router.put(
    '/api/crm-instances/:instanceId',
    access.superAdmin,
    async (ctx) => {
      const expectedRevision = expectedRevisionOf(ctx);
      const view = await updateInstance(
        deps,
        ctx.params.instanceId ?? '',
        ctx.request.body,
        commandContext(ctx, deps, null),
        expectedRevision,
      );
      sendRecord(ctx, view);
    },
    { doc: DOCS.update },
  );

  router.get(
    '/api/crm-instances/:instanceId/history',
    access.superAdmin,
    async (ctx) => {
      ctx.body = await getInstanceHistory(deps, ctx.params.instanceId);
    },
    { doc: DOCS.history },
  );

  router.get(
    '/api/crm-instances',
    access.superAdmin,
    async (ctx) => {
      ctx.body = await listInstances(deps.knex);
    },
    { doc: DOCS.list },
  );

  router.post(
    '/api/crm-instances',
    access.superAdmin,
    async (ctx) => {
      const input = parseInput(createInstanceInput, ctx.request.body);
      const view = await createInstance(
        deps,
        {
          name: input.name,
          subdomain: input.subdomain,
          displayName: input.displayName,
          description: input.description,
          features: input.features,
          ...(input.timeZone ? { timeZone: input.timeZone } : {}),
          firstAdmin: { username: input.adminUsername, displayName: input.adminDisplayName, pin: input.adminPin },
        },
        commandContext(ctx, deps, null),
        recordFirstAdmin,
      );
      ctx.status = 201;
      ctx.body = view;
    },
    { doc: DOCS.create },
  );
}

/** The provider's own instance exists from the first start on. */
export async function ensureReservedInstance(deps: AppDeps): Promise<void> {
  if (await reservationHolder(deps.store, subdomainStream(RESERVED_INSTANCE_SUBDOMAIN))) return;
  try {
    await recordInstance(
      deps,
      {
        name: RESERVED_INSTANCE_SUBDOMAIN.toUpperCase(),
        subdomain: RESERVED_INSTANCE_SUBDOMAIN,
        displayName: deps.config.PROVIDER_NAME,
        description: "The provider's own CRM",
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      },
      systemContext(deps.now()),
    );
  } catch (error) {
    // Another process made it first: fine.
    if (!(error instanceof ConflictError)) throw error;
  }
}
