import { resetPinInput } from '@crm/projections/identity';
import { apiFetch } from '@/lib/api-client';
import { ifMatch } from '@/lib/concurrency';

/**
 * An admin sets a staff member's new PIN; the server ends that user's sessions. Answers 204.
 * `revision` (If-Match): the revision of the user the screen shows.
 */
export async function resetUserPin({ userId, pin, revision }: { userId: string; pin: string; revision?: number }): Promise<void> {
  const body = resetPinInput.parse({ pin });
  await apiFetch<void>(`/api/admin/users/${encodeURIComponent(userId)}/pin`, { method: 'PUT', body, headers: ifMatch(revision) });
}
