import {
  changeOwnPinInput,
  changePermissionsInput,
  changeRoleInput,
  createUserInput,
  resetPinInput,
  setLockInput,
  signInInput,
} from '@crm/projections/contract';
import type { AppDeps } from '../deps.ts';
import type { Principal } from '../http/auth.ts';
import { expectedRevisionOf, sendRecord } from '../http/etag.ts';
import { access, userOf, type ApiContext, type ApiRouter } from '../http/router.ts';
import { IDENTITY_DOCS as DOCS, signInNamingInstanceInput } from './route-docs.ts';
import { createSharedRateLimiter } from '../http/rate-limit-store.ts';
import { SESSION_COOKIE } from '../http/session-cookie.ts';
import { endSession, startSession } from '../http/session-lifecycle.ts';
import { destroyOtherUserSessions } from '../http/session-store.ts';
import { parseInput } from '../http/validation.ts';
import { getInstance } from '../platform/index.ts';
import { commandContext } from '../http/command-context.ts';
import { AppError, ForbiddenError, invalidField, NotFoundError, UnauthorizedError } from '../shared/errors.ts';
import { ACCOUNT_LOCKED, INSTANCE_CLOSED, signInUser, SIGN_IN_REFUSED, throttledMessage, toCurrentUserView } from './sign-in.ts';
import type { Requester } from './user-decider.ts';
import { findUser, getUser, listUserChoices, listUsers } from './user-queries.ts';
import {
  addUser,
  changeOwnPin,
  clearSignInLock,
  changePermissions,
  changeRole,
  deleteUser,
  resetPin,
  setLocked,
  type UserTarget,
} from './user-service.ts';

/** Every user-administration route exists in both path families. */
export const ADMIN_USERS_BASES = ['/api/admin/users', '/api/:instance/admin/users'] as const;
export const USER_CHOICES_PATHS = ['/api/users/choices', '/api/:instance/users/choices'] as const;

function requesterOf(principal: Principal): Requester {
  return principal.kind === 'superadmin'
    ? { kind: 'provider' }
    : { kind: 'user', userId: principal.userId, role: principal.role, permissions: principal.permissions };
}

/** Instance sign-in, the signed-in user, and user administration. */
export function registerIdentityRoutes(router: ApiRouter, deps: AppDeps): void {
  const signInLimit = createSharedRateLimiter(deps.knex, 'sign-in', { windowMs: 60_000, max: deps.config.SIGN_IN_RATE_LIMIT });
  // Guessing the current PIN through a hijacked session is slowed down per account.
  const pinChangeLimit = createSharedRateLimiter(deps.knex, 'pin-change', { windowMs: 15 * 60_000, max: 10 });

  const signIn = async (ctx: ApiContext, pathInstance: string | undefined) => {
    await signInLimit.check(ctx);
    const input = parseInput(pathInstance === undefined ? signInNamingInstanceInput : signInInput, ctx.request.body);
    const instance = pathInstance ?? input.instance;
    if (!instance) throw invalidField('instance', 'Instance is required');
    const context = commandContext(ctx, deps, null);
    const principal = await signInUser(deps, { instance, username: input.username, pin: input.pin }, context);
    deps.logger.info(
      {
        requestId: ctx.state.requestId,
        instance,
        username: input.username,
        outcome: 'refused' in principal ? 'refused' : 'signed-in',
        ...('refused' in principal ? { reason: principal.refused } : {}),
      },
      'instance sign-in',
    );
    if ('refused' in principal) {
      switch (principal.refused) {
        case 'credentials':
          throw new UnauthorizedError(SIGN_IN_REFUSED);
        case 'closed':
          throw new ForbiddenError(INSTANCE_CLOSED);
        case 'locked':
          throw new AppError('locked', ACCOUNT_LOCKED);
        case 'throttled':
          ctx.set('Retry-After', String(Math.max(1, Math.ceil((Date.parse(principal.lockedUntil) - context.now.getTime()) / 1000))));
          throw new AppError('locked', throttledMessage(principal.lockedUntil, context.now), { lockedUntil: principal.lockedUntil });
      }
    }
    await startSession(ctx, { kind: 'user', userId: principal.userId, instanceId: principal.instance.id });
    ctx.body = toCurrentUserView(principal);
  };

  router.post('/api/auth/login', access.public, (ctx) => signIn(ctx, undefined), { doc: DOCS.signInNamingInstance });
  router.post('/api/:instance/auth/login', access.public, (ctx) => signIn(ctx, ctx.params.instance), { doc: DOCS.signIn });

  router.post('/api/auth/logout', access.public, async (ctx) => endSession(ctx), { doc: DOCS.signOut });

  router.get(
    '/api/user/current',
    access.signedIn,
    async (ctx) => {
      ctx.body = toCurrentUserView(userOf(ctx));
    },
    { doc: DOCS.current },
  );

  router.put(
    '/api/user/pin',
    access.signedIn,
    async (ctx) => {
      const me = userOf(ctx);
      await pinChangeLimit.check(ctx, me.userId);
      const input = parseInput(changeOwnPinInput, ctx.request.body);
      await changeOwnPin(
        deps,
        { instanceId: me.instance.id, userId: me.userId },
        input.currentPin,
        input.newPin,
        commandContext(ctx, deps, me.instance.id),
      );
      // Whoever signed in with the old PIN elsewhere is signed out; this browser's session
      // (the one that gave the current PIN) goes on, its open live stream included.
      await destroyOtherUserSessions(deps.knex, me.userId, ctx.cookies.get(SESSION_COOKIE, { signed: true }));
      ctx.status = 204;
    },
    { doc: DOCS.changeOwnPin },
  );

  // The session's instance; the target is looked up in it first, so another instance's id is a 404 whatever the body.
  const manage = access.can('canManageUsers');
  const targetOf = async (ctx: ApiContext): Promise<UserTarget> => {
    const me = userOf(ctx);
    const user = await findUser(deps.knex, me.instance.id, ctx.params.id ?? '');
    if (!user) throw new NotFoundError('User not found');
    return { instanceId: me.instance.id, userId: user.id };
  };

  for (const base of ADMIN_USERS_BASES) {
    router.get(
      base,
      manage,
      async (ctx) => {
        ctx.body = await listUsers(deps.knex, userOf(ctx).instance.id);
      },
      { doc: DOCS.list },
    );

    router.post(
      base,
      manage,
      async (ctx) => {
        const me = userOf(ctx);
        const input = parseInput(createUserInput, ctx.request.body);
        const created = await addUser(
          deps,
          { instanceId: me.instance.id, ...input, by: requesterOf(me) },
          commandContext(ctx, deps, me.instance.id),
        );
        sendRecord(ctx, created, 201);
      },
      { doc: DOCS.create },
    );

    // One user with its ETag (the list's items carry the same `revision`).
    router.get(
      `${base}/:id`,
      manage,
      async (ctx) => {
        sendRecord(ctx, await getUser(deps.knex, userOf(ctx).instance.id, ctx.params.id ?? ''));
      },
      { doc: DOCS.show },
    );

    // Every change takes If-Match (optional): the ETag / revision of the user the admin saw.
    router.delete(
      `${base}/:id`,
      manage,
      async (ctx) => {
        const target = await targetOf(ctx);
        const expected = expectedRevisionOf(ctx);
        await deleteUser(deps, target, requesterOf(userOf(ctx)), commandContext(ctx, deps, target.instanceId), expected);
        ctx.status = 204;
      },
      { doc: DOCS.remove },
    );

    router.patch(
      `${base}/:id/lock`,
      manage,
      async (ctx) => {
        const target = await targetOf(ctx);
        const expected = expectedRevisionOf(ctx);
        const input = parseInput(setLockInput, ctx.request.body);
        const by = requesterOf(userOf(ctx));
        sendRecord(ctx, await setLocked(deps, target, input.isLocked, by, commandContext(ctx, deps, target.instanceId), expected));
      },
      { doc: DOCS.lock },
    );

    // A lockout after failed sign-ins runs out by itself; an admin may end it sooner.
    router.delete(
      `${base}/:id/sign-in-lock`,
      manage,
      async (ctx) => {
        const target = await targetOf(ctx);
        const expected = expectedRevisionOf(ctx);
        const by = requesterOf(userOf(ctx));
        sendRecord(ctx, await clearSignInLock(deps, target, by, commandContext(ctx, deps, target.instanceId), expected));
      },
      { doc: DOCS.clearSignInLock },
    );

    router.patch(
      `${base}/:id/role`,
      manage,
      async (ctx) => {
        const target = await targetOf(ctx);
        const expected = expectedRevisionOf(ctx);
        const input = parseInput(changeRoleInput, ctx.request.body);
        const by = requesterOf(userOf(ctx));
        sendRecord(ctx, await changeRole(deps, target, input.role, by, commandContext(ctx, deps, target.instanceId), expected));
      },
      { doc: DOCS.role },
    );

    router.put(
      `${base}/:id/pin`,
      manage,
      async (ctx) => {
        const target = await targetOf(ctx);
        const expected = expectedRevisionOf(ctx);
        const input = parseInput(resetPinInput, ctx.request.body);
        await resetPin(deps, target, input.pin, requesterOf(userOf(ctx)), commandContext(ctx, deps, target.instanceId), expected);
        ctx.status = 204;
      },
      { doc: DOCS.resetPin },
    );

    router.patch(
      `${base}/:id/permissions`,
      manage,
      async (ctx) => {
        const target = await targetOf(ctx);
        const expected = expectedRevisionOf(ctx);
        const input = parseInput(changePermissionsInput, ctx.request.body);
        const by = requesterOf(userOf(ctx));
        sendRecord(ctx, await changePermissions(deps, target, input, by, commandContext(ctx, deps, target.instanceId), expected));
      },
      { doc: DOCS.permissions },
    );
  }

  // The pipeline's CSR and Tech selects: whoever may read the pipeline may see who can work on a job.
  for (const path of USER_CHOICES_PATHS) {
    router.get(
      path,
      access.can('canRead'),
      async (ctx) => {
        ctx.body = await listUserChoices(deps.knex, userOf(ctx).instance.id);
      },
      { doc: DOCS.choices },
    );
  }

  // The super admin, for any instance: list its users, add an admin, reset a PIN.
  const instanceOf = (ctx: ApiContext) => getInstance(deps.knex, ctx.params.instanceId);

  router.get(
    '/api/crm-instances/:instanceId/users',
    access.superAdmin,
    async (ctx) => {
      const instance = await instanceOf(ctx);
      ctx.body = await listUsers(deps.knex, instance.id);
    },
    { doc: DOCS.instanceUsers },
  );

  router.post(
    '/api/crm-instances/:instanceId/users',
    access.superAdmin,
    async (ctx) => {
      const instance = await instanceOf(ctx);
      const input = parseInput(createUserInput, ctx.request.body);
      ctx.status = 201;
      ctx.body = await addUser(
        deps,
        { instanceId: instance.id, ...input, by: requesterOf(ctx.state.principal!) },
        commandContext(ctx, deps, instance.id),
      );
    },
    { doc: DOCS.instanceAddUser },
  );

  router.put(
    '/api/crm-instances/:instanceId/users/:userId/pin',
    access.superAdmin,
    async (ctx) => {
      const instance = await instanceOf(ctx);
      const user = await getUser(deps.knex, instance.id, ctx.params.userId ?? '');
      const expected = expectedRevisionOf(ctx);
      const input = parseInput(resetPinInput, ctx.request.body);
      await resetPin(
        deps,
        { instanceId: instance.id, userId: user.id },
        input.pin,
        { kind: 'provider' },
        commandContext(ctx, deps, instance.id),
        expected,
      );
      ctx.status = 204;
    },
    { doc: DOCS.instanceResetPin },
  );
}
