import type { AppDeps } from '../deps.ts';
import { executeCommand, loadAggregate, systemContext, type CommandContext } from '../shared/commands.ts';
import { DECOY_HASH, generatePassword, hashSecret, verifySecret } from '../shared/secrets.ts';
import { SUPER_ADMIN_ID, superAdminDecider, superAdminStream } from './super-admin-decider.ts';

export interface SuperAdminCredentials {
  username: string;
  /** Present when the password was generated now or given by the environment. */
  password: string | null;
  generated: boolean;
}

/**
 * DECISIONS.md §3: from SUPER_ADMIN_USERNAME / SUPER_ADMIN_PASSWORD, or on first start
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

/** Checks the credentials against the super admin's stream and records the attempt. */
export async function signInSuperAdmin(
  deps: AppDeps,
  username: string,
  password: string,
  ctx: CommandContext,
): Promise<{ superAdminId: string; username: string; displayName: string } | null> {
  const loaded = await loadAggregate(deps.store, superAdminStream(), superAdminDecider);
  const state = loaded.state;
  const known = state.status === 'active' && state.username.toLowerCase() === username.toLowerCase();
  // Verify even for an unknown name so the answer takes as long either way.
  const valid = await verifySecret(password, known ? state.passwordHash : DECOY_HASH);
  if (state.status !== 'active') return null;
  await executeCommand({
    store: deps.store,
    streamId: superAdminStream(),
    decider: superAdminDecider,
    command: { type: 'RecordSuperAdminSignIn', succeeded: known && valid },
    ctx,
  });
  return known && valid ? { superAdminId: state.id, username: state.username, displayName: state.displayName } : null;
}

export async function currentSuperAdmin(deps: AppDeps) {
  const { state } = await loadAggregate(deps.store, superAdminStream(), superAdminDecider);
  return state.status === 'active' ? { id: state.id, username: state.username, displayName: state.displayName } : null;
}
