import { sessionViewSchema, type SessionView } from '@crm/projections/contract';
import { apiFetch } from './api-client';
import { noteSessionEnded } from './session-ended';

/**
 * GET /api/session: who is signed in (an instance user, the super admin, or nobody). It answers
 * 200 either way, so a signed-out visit logs nothing.
 */
export async function fetchSession(signal?: AbortSignal): Promise<SessionView> {
  const view = sessionViewSchema.parse(await apiFetch('/api/session', { signal }));
  if (view.ended) noteSessionEnded(view.ended);
  return view;
}
