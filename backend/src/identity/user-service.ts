import { randomUUID } from 'node:crypto';
import { defaultPermissions, userRecordRevision, type Permissions, type Role, type UserView } from '@crm/projections/identity';
import { WrongExpectedVersionError, type AppendResult, type StreamAppend } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { settle, SETTLE_TIMEOUT_MS } from '../deps.ts';
import { destroyUserSessions } from '../http/session-store.ts';
import type { FirstAdminRecorder } from '../platform/index.ts';
import {
  decideNewStream,
  executeCommand,
  loadAggregate,
  toNewEvents,
  type CommandContext,
  type CommandResult,
} from '../shared/commands.ts';
import { AppError, ConflictError, ForbiddenError, NotFoundError, StaleRecordError, ValidationError } from '../shared/errors.ts';
import { release, reservationHolder } from '../shared/reservations.ts';
import { hashSecret, verifySecret } from '../shared/secrets.ts';
import {
  assertMayManage,
  permissionsBeyond,
  userDecider,
  usernameStream,
  userStream,
  type Requester,
  type UserCommand,
  type UserEvent,
  type UserState,
} from './user-decider.ts';
import { countOtherUnlockedAdmins, findUser, getUser } from './user-queries.ts';
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

/** A user of one instance: every command names both, and ids of another instance name nothing. */
export interface UserTarget {
  instanceId: string;
  userId: string;
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

/** How often a pinned command is tried again when only sign-ins moved the stream meanwhile. */
const PINNED_ATTEMPTS = 3;

/** The caller's copy of the user is stale; becomes the 409 outside any transaction (see `staleUser`). */
class StaleCopy extends Error {}

/**
 * Runs a command on the user's stream. With `expectedRevision` (If-Match: the account
 * record's revision the caller saw, see USER_RECORD_EVENT_TYPES) a user whose record has
 * changed since is a 409 that carries the user as it is now. Sign-ins move the stream but
 * not the record: the append is pinned to the stream as checked, and should a sign-in slip
 * in between, the check runs again.
 */
async function runUserCommand(
  deps: AppDeps,
  target: UserTarget,
  command: UserCommand,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<CommandResult<UserState, UserEvent>> {
  try {
    return await runPinnedUserCommand(deps, target, command, ctx, expectedRevision);
  } catch (error) {
    if (error instanceof StaleCopy) throw await staleUser(deps, target);
    throw error;
  }
}

/** `runUserCommand` without the 409's read: a stale copy is a StaleCopy. */
async function runPinnedUserCommand(
  deps: AppDeps,
  target: UserTarget,
  command: UserCommand,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<CommandResult<UserState, UserEvent>> {
  const streamId = userStream(target.userId);
  const run = (pinned?: number) =>
    executeCommand({ store: deps.store, streamId, decider: userDecider, command, ctx, expectedRevision: pinned });
  if (expectedRevision === undefined) return await run();
  for (let attempt = 1; ; attempt++) {
    const loaded = await loadAggregate(deps.store, streamId, userDecider);
    if (userRecordRevision(loaded.events) !== expectedRevision) throw new StaleCopy();
    try {
      return await run(loaded.revision ?? undefined);
    } catch (error) {
      if (!(error instanceof ConflictError) || attempt >= PINNED_ATTEMPTS) throw error;
      // The decider's own conflict (e.g. the last admin) stands; a moved stream is checked again.
      const now = await loadAggregate(deps.store, streamId, userDecider);
      if (now.revision === loaded.revision) throw error;
    }
  }
}

/** The 409 of a stale If-Match: the user as the read model has it once caught up (its revision is the record's). */
async function staleUser(deps: AppDeps, target: UserTarget): Promise<Error> {
  await deps.watcher.waitFor(await deps.store.headPosition(), SETTLE_TIMEOUT_MS);
  const current = await findUser(deps.knex, target.instanceId, target.userId);
  return current ? new StaleRecordError('user', current) : new NotFoundError('User not found');
}

/**
 * Role changes, locks and deletions could leave an instance without an unlocked admin.
 * Only the read model lists an instance's users, and it trails the event store, so two
 * admins demoting or locking each other at the same moment could both see the other as
 * the one who remains. These commands therefore run one at a time per instance (a
 * transaction-scoped advisory lock, which holds across API processes), count the admins
 * only once everything appended so far is projected, and wait for their own events to be
 * projected before letting the next one count.
 */
async function withAdminCount(
  deps: AppDeps,
  target: UserTarget,
  build: (otherUnlockedAdmins: number) => UserCommand,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<CommandResult<UserState, UserEvent>> {
  try {
    return await adminCountTransaction(deps, target, build, ctx, expectedRevision);
  } catch (error) {
    // Read after the transaction: inside it, the pool may have no other connection to give.
    if (error instanceof StaleCopy) throw await staleUser(deps, target);
    throw error;
  }
}

async function adminCountTransaction(
  deps: AppDeps,
  target: UserTarget,
  build: (otherUnlockedAdmins: number) => UserCommand,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<CommandResult<UserState, UserEvent>> {
  return await deps.knex.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`crm-instance-admins:${target.instanceId}`]);
    const caughtUp = await deps.watcher.waitFor(await deps.store.headPosition(), SETTLE_TIMEOUT_MS);
    if (!caughtUp) throw new AppError('unavailable', 'The server is busy. Please try again in a moment.');
    // Counted on the locked connection: waiting commands may hold every other pooled one.
    const others = await countOtherUnlockedAdmins(trx, target.instanceId, target.userId);
    const result = await runPinnedUserCommand(deps, target, build(others), ctx, expectedRevision);
    await settle(deps, result.appended);
    return result;
  });
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
  if (!(await verifySecret(currentPin, state.pinHash))) throw new ValidationError('Current PIN is incorrect');
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
