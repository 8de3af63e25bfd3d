import { randomUUID } from 'node:crypto';
import { defaultPermissions, type Permissions, type Role } from '@crm/projections/domain';
import type { AppendResult } from '@crm/projections/eventstore/port';
import type { AppDeps } from '../deps.ts';
import { executeCommand, type CommandContext } from '../shared/commands.ts';
import { release, reserve } from '../shared/reservations.ts';
import { hashSecret } from '../shared/secrets.ts';
import { userDecider, usernameStream, userStream } from './user-decider.ts';

export interface NewUser {
  instanceId: string;
  username: string;
  displayName: string;
  pin: string;
  role: Role;
  permissions?: Permissions;
}

/** Reserves the username (unique per instance, any case), then records UserCreated with
 * the PIN's hash. The reservation is released again if the user cannot be created. */
export async function createUser(deps: Pick<AppDeps, 'store'>, input: NewUser, ctx: CommandContext): Promise<{ userId: string; appended: AppendResult }> {
  const userId = randomUUID();
  const reservation = usernameStream(input.instanceId, input.username);
  await reserve(
    deps.store,
    reservation,
    { type: 'UsernameReserved', data: { instanceId: input.instanceId, username: input.username, userId } },
    ctx,
    `Username "${input.username}" is already taken`,
  );
  try {
    const result = await executeCommand({
      store: deps.store,
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
      },
      ctx,
    });
    return { userId, appended: result.appended! };
  } catch (error) {
    await release(
      deps.store,
      reservation,
      { type: 'UsernameReleased', data: { instanceId: input.instanceId, username: input.username, userId } },
      ctx,
    );
    throw error;
  }
}
