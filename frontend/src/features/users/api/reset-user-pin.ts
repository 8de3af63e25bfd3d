import { resetPinInput } from '@crm/projections/domain';
import { apiFetch } from '@/lib/api-client';

/** An admin sets a staff member's new PIN; the server ends that user's sessions. Answers 204. */
export async function resetUserPin({ userId, pin }: { userId: string; pin: string }): Promise<void> {
  const body = resetPinInput.parse({ pin });
  await apiFetch<void>(`/api/admin/users/${encodeURIComponent(userId)}/pin`, { method: 'PUT', body });
}
