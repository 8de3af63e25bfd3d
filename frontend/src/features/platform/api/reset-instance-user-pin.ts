import { resetPinInput } from '@crm/projections/identity';
import { apiFetch } from '@/lib/api-client';
import { instanceUsersPath } from './get-instance-users';

export interface ResetInstanceUserPinInput {
  instanceId: string;
  userId: string;
  pin: string;
}

/** Sets a user's PIN; the server also ends that user's sessions. Answers 204. */
export async function resetInstanceUserPin({ instanceId, userId, pin }: ResetInstanceUserPinInput): Promise<void> {
  const body = resetPinInput.parse({ pin });
  await apiFetch<void>(`${instanceUsersPath(instanceId)}/${encodeURIComponent(userId)}/pin`, { method: 'PUT', body });
}
