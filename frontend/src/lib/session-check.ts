import { sessionViewSchema, type SessionView } from '@crm/projections/contract';
import { apiFetch } from './api-client';

/**
 * GET /api/session: who is signed in (an instance user, the super admin, or nobody). It answers
 * 200 either way, so a signed-out visit logs nothing.
 */
export async function fetchSession(signal?: AbortSignal): Promise<SessionView> {
  return sessionViewSchema.parse(await apiFetch('/api/session', { signal }));
}
