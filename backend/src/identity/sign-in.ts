import type { CurrentUserView } from '@crm/projections/identity';
import { normalizeSubdomain } from '@crm/projections/platform';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { loadUserPrincipal, type UserPrincipal } from '../http/auth.ts';
import { findInstanceBySubdomain } from '../platform/index.ts';
import { executeCommand, loadAggregate, type CommandContext } from '../shared/commands.ts';
import { AppError } from '../shared/errors.ts';
import { reservationHolder } from '../shared/reservations.ts';
import { DECOY_HASH } from '../shared/secrets.ts';
import { RefusalPace, signInHashing } from '../http/sign-in-pace.ts';
import { lockIsTold, userDecider, usernameStream, userStream } from './user-decider.ts';

export const SIGN_IN_REFUSED = 'Invalid username or PIN';
export const INSTANCE_CLOSED = 'This CRM is closed. Contact your provider.';
export const ACCOUNT_LOCKED = "This account is locked. Ask your shop's admin to unlock it.";

/**
 * Why a sign-in was refused. Only what a shop can act on is told apart: a closed CRM is no
 * secret, and a lock is told only to someone who knows the PIN. Everything else (no such
 * instance or user, a wrong PIN) is `credentials`, so accounts cannot be enumerated.
 */
export type SignInRefusal =
  { refused: 'credentials' } | { refused: 'closed' } | { refused: 'locked' } | { refused: 'throttled'; lockedUntil: string };

/** The one-line message for a throttled account: how long it stays locked. */
export function throttledMessage(lockedUntil: string, now: Date): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 60_000));
  return `Too many failed sign-ins: this account is locked for ${minutes} more minute${minutes === 1 ? '' : 's'}.`;
}

export interface SignInAttempt {
  /** Subdomain slug of the instance. */
  instance: string;
  username: string;
  pin: string;
}

/** Holds wrong-credential answers to one pace (see RefusalPace). */
const refusals = new RefusalPace();

/**
 * Checks a PIN against the user's own stream (the read model never holds a secret) and
 * records the attempt; the decider says whether it signs in (admin lock, throttle).
 * A refusal says only what SignInRefusal allows, the PIN is verified exactly once even when
 * there is no account, and a wrong-credentials answer is held to the pace of one that was
 * recorded, so timing does not tell accounts apart either.
 */
export async function signInUser(
  deps: AppDeps,
  attempt: SignInAttempt,
  ctx: Omit<CommandContext, 'instanceId'>,
): Promise<UserPrincipal | SignInRefusal> {
  const started = performance.now();
  const refuse = async (recorded: boolean): Promise<SignInRefusal> => {
    if (recorded) refusals.observe(performance.now() - started);
    await refusals.hold(started);
    return { refused: 'credentials' };
  };
  const instance = await findInstanceBySubdomain(deps.knex, normalizeSubdomain(attempt.instance));
  const holder = instance ? await reservationHolder(deps.store, usernameStream(instance.id, attempt.username)) : null;
  const userId = typeof holder?.userId === 'string' ? holder.userId : null;
  const { state } = userId ? await loadAggregate(deps.store, userStream(userId), userDecider) : { state: userDecider.initialState };
  const account = (state.status === 'active' || state.status === 'locked') && state.instanceId === instance?.id ? state : null;
  const pinMatches = await signInHashing.verify(attempt.pin, account?.pinHash ?? DECOY_HASH);
  if (instance && !instance.isActive) return { refused: 'closed' };
  if (!instance || !account) return await refuse(false);

  let result;
  try {
    result = await executeCommand({
      store: deps.store,
      streamId: userStream(account.userId),
      decider: userDecider,
      command: { type: 'RecordSignIn', succeeded: pinMatches, now: ctx.now },
      ctx: { ...ctx, instanceId: instance.id },
      // Parallel guesses contend for the stream; each must be recorded before it may succeed.
      attempts: 5,
    });
  } catch (error) {
    // Deleted meanwhile, or too much contention: a refusal like any other.
    if (error instanceof AppError) return await refuse(false);
    throw error;
  }
  if (!result.events.some((event) => event.type === 'UserSignedIn')) {
    if (!pinMatches) return await refuse(true);
    // Guessing went on through the lock: the right PIN no longer tells the lock either.
    if (!lockIsTold(account.failedSignIns)) return await refuse(true);
    // The right PIN was refused: the account as the decider saw it says why.
    const { state: now } = await loadAggregate(deps.store, userStream(account.userId), userDecider);
    if (now.status === 'locked') return { refused: 'locked' };
    const lockedUntil = now.status === 'active' ? now.signInLockedUntil : null;
    if (lockedUntil !== null && Date.parse(lockedUntil) > ctx.now.getTime()) return { refused: 'throttled', lockedUntil };
    return { refused: 'credentials' };
  }
  await settle(deps, result.appended);
  const principal = await loadUserPrincipal(deps.knex, account.userId, instance.id);
  if (!principal) throw new AppError('unavailable', 'Sign-in is taking longer than it should. Please try again.');
  return principal;
}

export function toCurrentUserView(principal: UserPrincipal): CurrentUserView {
  const { instance } = principal;
  return {
    id: principal.userId,
    username: principal.username,
    displayName: principal.displayName,
    role: principal.role,
    permissions: principal.permissions,
    instance: {
      id: instance.id,
      name: instance.name,
      subdomain: instance.subdomain,
      displayName: instance.displayName,
      features: instance.features,
      timeZone: instance.timeZone,
    },
  };
}
