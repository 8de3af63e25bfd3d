import { randomUUID } from 'node:crypto';
import { defaultPermissions, type Permissions, type Role, type UserView } from '@crm/projections/identity';
import { WrongExpectedVersionError, type AppendResult, type StreamAppend } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { destroyUserSessions } from '../http/session-store.ts';
import type { FirstAdminRecorder } from '../platform/index.ts';
import { decideNewStream, loadAggregate, toNewEvents, type CommandContext } from '../shared/commands.ts';
import { ConflictError, ForbiddenError, invalidField, NotFoundError } from '../shared/errors.ts';
import { release, reservationHolder } from '../shared/reservations.ts';
import { hashSecret, verifySecret } from '../shared/secrets.ts';
import { assertMayManage, permissionsBeyond, userDecider, usernameStream, userStream, type Requester } from './user-decider.ts';
import { getUser } from './user-queries.ts';
import { runUserCommand, withAdminCount, type UserTarget } from './user-commands.ts';

export type { UserTarget };
import { reservationOf } from '../shared/reservation-decider.ts';

export interface NewUser {
  instanceId: string;
  username: string;
  displayName: string;
  pin: string;
  role: Role;
  permissions?: Permissions;
  /** Who creates the user; the provider (super admin, bootstrap) when not given. */
  by?: Requester;
}

const PROVIDER: Requester = { kind: 'provider' };

/** An instance's first admin, recorded in the same append as the instance itself (`alongside`). */
export const recordFirstAdmin: FirstAdminRecorder = (deps, admin, ctx, alongside) =>
  createUser(deps, { instanceId: ctx.instanceId, ...admin, role: 'admin' }, ctx, alongside);

/**
 * Records the username's reservation (unique per instance, any case) and UserCreated with the
 * PIN's hash in one append, all or nothing: a user that cannot be recorded leaves no name
 * taken, a crash included. `alongside`: appends of the same command recorded before them in
 * that append (an instance with its first admin). A store without multi-stream transactions
 * (EventStoreDB) appends in order; the reservation is then released again on a failure.
 */
export async function createUser(
  deps: Pick<AppDeps, 'store'>,
  input: NewUser,
  ctx: CommandContext,
  alongside: StreamAppend[] = [],
): Promise<{ userId: string; appended: AppendResult }> {
  const by = input.by ?? PROVIDER;
  // The decider is the authority; asking first spares hashing a PIN for nothing.
  assertMayManage(by, input.role);
  const beyond = permissionsBeyond(by, input.permissions ?? defaultPermissions(input.role));
  if (beyond.length > 0) throw new ForbiddenError(`You cannot grant a permission you do not have yourself (${beyond.join(', ')})`);
  const userId = randomUUID();
  const reservation = usernameStream(input.instanceId, input.username);
  const taken = `Username "${input.username}" is already taken`;
  const user = decideNewStream({
    streamId: userStream(userId),
    decider: userDecider,
    command: {
      type: 'CreateUser',
      userId,
      instanceId: input.instanceId,
      username: input.username,
      displayName: input.displayName,
      role: input.role,
      permissions: input.permissions ?? defaultPermissions(input.role),
      pinHash: await hashSecret(input.pin),
      by,
    },
    ctx,
  });
  const record = async (): Promise<AppendResult> => {
    const held = await deps.store.readStream(reservation);
    const last = held[held.length - 1];
    if (reservationOf(held).status === 'held') throw new ConflictError(taken);
    const reserved: StreamAppend = {
      streamId: reservation,
      events: toNewEvents([{ type: 'UsernameReserved', data: { instanceId: input.instanceId, username: input.username, userId } }], ctx),
      expectedRevision: last ? last.revision : 'no_stream',
    };
    try {
      const results = await deps.store.appendMany([...alongside, reserved, user.append]);
      return results[results.length - 1]!;
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && error.streamId === reservation) throw new ConflictError(taken);
      if (!deps.store.atomicMultiStream && (await reservationHolder(deps.store, reservation))?.userId === userId) {
        await release(
          deps.store,
          reservation,
          { type: 'UsernameReleased', data: { instanceId: input.instanceId, username: input.username, userId } },
          ctx,
        );
      }
      throw error;
    }
  };
  try {
    return { userId, appended: await record() };
  } catch (error) {
    // A deletion that stopped between UserDeleted and UsernameReleased left the name held by nobody.
    if (!(error instanceof ConflictError) || !(await releaseIfHolderDeleted(deps, reservation, ctx))) throw error;
    return { userId, appended: await record() };
  }
}

async function releaseIfHolderDeleted(deps: Pick<AppDeps, 'store'>, reservation: string, ctx: CommandContext): Promise<boolean> {
  const holder = await reservationHolder(deps.store, reservation);
  if (typeof holder?.userId !== 'string') return false;
  const { state } = await loadAggregate(deps.store, userStream(holder.userId), userDecider);
  if (state.status !== 'deleted') return false;
  const { instanceId, username, userId } = state;
  await release(deps.store, reservation, { type: 'UsernameReleased', data: { instanceId, username, userId } }, ctx);
  return true;
}

/** Creates the user and answers with its projected row. */
export async function addUser(deps: AppDeps, input: NewUser, ctx: CommandContext): Promise<UserView> {
  const { userId, appended } = await createUser(deps, input, ctx);
  await settle(deps, appended);
  return await getUser(deps.knex, input.instanceId, userId);
}

/**
 * The admin commands below take `expectedRevision` (If-Match, optional): the account
 * record's revision the admin saw; a user changed since is a 409 with the user as it is now.
 */
export async function changeRole(
  deps: AppDeps,
  target: UserTarget,
  role: Role,
  by: Requester,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<UserView> {
  await withAdminCount(
    deps,
    target,
    (otherUnlockedAdmins) => ({ type: 'ChangeRole', role, by, otherUnlockedAdmins }),
    ctx,
    expectedRevision,
  );
  return await getUser(deps.knex, target.instanceId, target.userId);
}

/** Lifts a sign-in lockout (too many failed PINs) before it runs out; nothing to do without one. */
export async function clearSignInLock(
  deps: AppDeps,
  target: UserTarget,
  by: Requester,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<UserView> {
  const result = await runUserCommand(deps, target, { type: 'ClearSignInLock', by, now: ctx.now }, ctx, expectedRevision);
  await settle(deps, result.appended);
  return await getUser(deps.knex, target.instanceId, target.userId);
}

/** Locking ends the user's sessions at once (the guard would refuse them anyway). */
export async function setLocked(
  deps: AppDeps,
  target: UserTarget,
  isLocked: boolean,
  by: Requester,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<UserView> {
  if (isLocked) {
    await withAdminCount(deps, target, (otherUnlockedAdmins) => ({ type: 'Lock', by, otherUnlockedAdmins }), ctx, expectedRevision);
    await destroyUserSessions(deps.knex, target.userId, 'account-locked');
  } else {
    const result = await runUserCommand(deps, target, { type: 'Unlock', by }, ctx, expectedRevision);
    await settle(deps, result.appended);
  }
  return await getUser(deps.knex, target.instanceId, target.userId);
}

/** Deletes the user, frees the username for reuse and ends the user's sessions. */
export async function deleteUser(
  deps: AppDeps,
  target: UserTarget,
  by: Requester,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<void> {
  const result = await withAdminCount(
    deps,
    target,
    (otherUnlockedAdmins) => ({ type: 'Delete', by, otherUnlockedAdmins }),
    ctx,
    expectedRevision,
  );
  await destroyUserSessions(deps.knex, target.userId, 'account-removed');
  if (result.state.status !== 'deleted') return;
  const { username } = result.state;
  const released = await release(
    deps.store,
    usernameStream(target.instanceId, username),
    { type: 'UsernameReleased', data: { instanceId: target.instanceId, username, userId: target.userId } },
    ctx,
  );
  await settle(deps, released);
}

export async function changePermissions(
  deps: AppDeps,
  target: UserTarget,
  permissions: Partial<Permissions>,
  by: Requester,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<UserView> {
  const result = await runUserCommand(deps, target, { type: 'ChangePermissions', permissions, by }, ctx, expectedRevision);
  await settle(deps, result.appended);
  return await getUser(deps.knex, target.instanceId, target.userId);
}

/** The user changes their own PIN; the current one must be given and right. */
export async function changeOwnPin(
  deps: AppDeps,
  target: UserTarget,
  currentPin: string,
  newPin: string,
  ctx: CommandContext,
): Promise<void> {
  const { state } = await loadAggregate(deps.store, userStream(target.userId), userDecider);
  if (state.status !== 'active' || state.instanceId !== target.instanceId) throw new NotFoundError('User not found');
  if (!(await verifySecret(currentPin, state.pinHash))) throw invalidField('currentPin', 'Current PIN is incorrect');
  const result = await runUserCommand(
    deps,
    target,
    { type: 'ChangePin', pinHash: await hashSecret(newPin), currentPinHash: state.pinHash },
    ctx,
  );
  await settle(deps, result.appended);
}

/**
 * Someone else sets a new PIN: the super admin for anyone, an admin or
 * manager for the staff they manage. Sessions signed in with the old PIN end.
 */
export async function resetPin(
  deps: AppDeps,
  target: UserTarget,
  pin: string,
  by: Requester,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<void> {
  const result = await runUserCommand(deps, target, { type: 'ResetPin', pinHash: await hashSecret(pin), by }, ctx, expectedRevision);
  await settle(deps, result.appended);
  await destroyUserSessions(deps.knex, target.userId, 'pin-reset');
}
