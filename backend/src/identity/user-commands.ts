import { userRecordRevision } from '@crm/projections/identity';
import type { AppDeps } from '../deps.ts';
import { settle, SETTLE_TIMEOUT_MS } from '../deps.ts';
import { executeCommand, loadAggregate, type CommandContext, type CommandResult } from '../shared/commands.ts';
import { AppError, ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { userDecider, userStream, type UserCommand, type UserEvent, type UserState } from './user-decider.ts';
import { countOtherUnlockedAdmins, findUser } from './user-queries.ts';

/** A user of one instance: every command names both, and ids of another instance name nothing. */
export interface UserTarget {
  instanceId: string;
  userId: string;
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
export async function runUserCommand(
  deps: AppDeps,
  target: UserTarget,
  command: UserCommand,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<CommandResult<UserState, UserEvent>> {
  return await answeringStale(deps, target, () => runPinnedUserCommand(deps, target, command, ctx, expectedRevision));
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

/** Runs `command`; a StaleCopy it throws becomes the 409 that carries the user as it is now. */
async function answeringStale<T>(deps: AppDeps, target: UserTarget, command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof StaleCopy) throw await staleUser(deps, target);
    throw error;
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
export async function withAdminCount(
  deps: AppDeps,
  target: UserTarget,
  build: (otherUnlockedAdmins: number) => UserCommand,
  ctx: CommandContext,
  expectedRevision?: number,
): Promise<CommandResult<UserState, UserEvent>> {
  // The 409's read comes after the transaction: inside it, the pool may have no other connection to give.
  return await answeringStale(deps, target, () =>
    deps.knex.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`crm-instance-admins:${target.instanceId}`]);
      const caughtUp = await deps.watcher.waitFor(await deps.store.headPosition(), SETTLE_TIMEOUT_MS);
      if (!caughtUp) throw new AppError('unavailable', 'The server is busy. Please try again in a moment.');
      // Counted on the locked connection: waiting commands may hold every other pooled one.
      const others = await countOtherUnlockedAdmins(trx, target.instanceId, target.userId);
      const result = await runPinnedUserCommand(deps, target, build(others), ctx, expectedRevision);
      await settle(deps, result.appended);
      return result;
    }),
  );
}
