import type { AppDeps } from '../deps.ts';
import { executeCommand, loadAggregate, systemContext, type CommandContext } from '../shared/commands.ts';
import { DECOY_HASH, generatePassword, hashSecret, verifySecret } from '../shared/secrets.ts';
import { RefusalPace, signInHashing } from '../http/sign-in-pace.ts';
import { AppError } from '../shared/errors.ts';
import { SUPER_ADMIN_ID, superAdminDecider, superAdminLockIsTold, superAdminStream, superAdminThrottled } from './super-admin-decider.ts';

export interface SuperAdminCredentials {
  username: string;
  /** Present when the password was generated now or given by the environment. */
  password: string | null;
  generated: boolean;
}

/**
 * From SUPER_ADMIN_USERNAME / SUPER_ADMIN_PASSWORD, or on first start
 * with a generated password printed once. A changed environment updates the credentials.
 */
export async function bootstrapSuperAdmin(deps: AppDeps): Promise<SuperAdminCredentials> {
  const { config } = deps;
  const loaded = await loadAggregate(deps.store, superAdminStream(), superAdminDecider);
  const username = config.SUPER_ADMIN_USERNAME;
  if (loaded.state.status === 'empty') {
    const password = config.SUPER_ADMIN_PASSWORD ?? generatePassword();
    await executeCommand({
      store: deps.store,
      streamId: superAdminStream(),
      decider: superAdminDecider,
      command: {
        type: 'CreateSuperAdmin',
        superAdminId: SUPER_ADMIN_ID,
        username,
        displayName: 'Super Admin',
        passwordHash: await hashSecret(password),
      },
      ctx: systemContext(deps.now()),
    });
    return { username, password, generated: !config.SUPER_ADMIN_PASSWORD };
  }
  const state = loaded.state;
  const password = config.SUPER_ADMIN_PASSWORD;
  const passwordChanged = password !== undefined && !(await verifySecret(password, state.passwordHash));
  if (passwordChanged || state.username !== username) {
    await executeCommand({
      store: deps.store,
      streamId: superAdminStream(),
      decider: superAdminDecider,
      command: {
        type: 'ChangeSuperAdminCredentials',
        username,
        passwordHash: password !== undefined && passwordChanged ? await hashSecret(password) : state.passwordHash,
      },
      ctx: systemContext(deps.now()),
    });
  }
  return { username, password: password ?? null, generated: false };
}

/** Holds wrong-credential answers to one pace (see RefusalPace). */
const refusals = new RefusalPace();

/**
 * Checks the credentials against the super admin's stream and records the attempt; null
 * when refused. Like a staff account, five failures in a row on its name lock it for 15
 * minutes (a 423 told only to someone who gives the right password; everyone else gets the
 * usual refusal). The password is hashed exactly once whatever the name, every attempt is
 * recorded, and refusals are held to one pace, so timing does not tell the name either.
 */
export async function signInSuperAdmin(
  deps: AppDeps,
  username: string,
  password: string,
  ctx: CommandContext,
): Promise<{ superAdminId: string; username: string; displayName: string } | null> {
  const started = performance.now();
  const loaded = await loadAggregate(deps.store, superAdminStream(), superAdminDecider);
  const state = loaded.state;
  const known = state.status === 'active' && state.username.toLowerCase() === username.toLowerCase();
  const valid = await signInHashing.verify(password, known ? state.passwordHash : DECOY_HASH);
  if (state.status !== 'active') return null;
  const result = await executeCommand({
    store: deps.store,
    streamId: superAdminStream(),
    decider: superAdminDecider,
    command: { type: 'RecordSuperAdminSignIn', succeeded: known && valid, namedAccount: known, now: ctx.now },
    ctx,
    // Parallel guesses contend for the one stream; each must be recorded before it may succeed.
    attempts: 5,
  });
  if (result.events.some((event) => event.type === 'SuperAdminSignedIn')) {
    return { superAdminId: state.id, username: state.username, displayName: state.displayName };
  }
  if (
    known &&
    valid &&
    superAdminThrottled(result.state, ctx.now) &&
    result.state.status === 'active' &&
    superAdminLockIsTold(state.failedSignIns)
  ) {
    const lockedUntil = result.state.signInLockedUntil!;
    const seconds = Math.max(1, Math.ceil((Date.parse(lockedUntil) - ctx.now.getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError(
      'locked',
      `Too many failed sign-ins: this account is locked for ${minutes} more minute${minutes === 1 ? '' : 's'}.`,
      { lockedUntil, retryAfterSeconds: seconds },
    );
  }
  refusals.observe(performance.now() - started);
  await refusals.hold(started);
  return null;
}

export async function currentSuperAdmin(deps: AppDeps) {
  const { state } = await loadAggregate(deps.store, superAdminStream(), superAdminDecider);
  return state.status === 'active' ? { id: state.id, username: state.username, displayName: state.displayName } : null;
}
