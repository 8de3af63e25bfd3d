import { sessionViewSchema, type SessionView } from '@crm/projections/contract';
import type { z } from 'zod';
import { apiFetch } from './api-client';
import { isAbort, reportFailure } from './report-failure';
import { noteSessionEnded } from './session-ended';

/**
 * The session calls staff and the super admin make alike: sign in (a POST of checked
 * credentials answered with who signed in), sign out (a POST), and the session check.
 */

/**
 * GET /api/session: who is signed in (an instance user, the super admin, or nobody). It answers
 * 200 either way, so a signed-out visit logs nothing.
 */
export async function fetchSession(signal?: AbortSignal): Promise<SessionView> {
  const view = sessionViewSchema.parse(await apiFetch('/api/session', { signal }));
  if (view.ended) noteSessionEnded(view.ended);
  return view;
}

const CHECK_FAILED = { user: 'User session check failed', superAdmin: 'Super admin session check failed' } as const;

/**
 * The signed-in instance user or super admin, or null. Any failure means nobody is signed in;
 * only faults are logged. A check called off (its query removed at sign-in) is left to the
 * query, not taken for an answer.
 */
export async function signedInAs<K extends 'user' | 'superAdmin'>(kind: K, signal?: AbortSignal): Promise<SessionView[K]> {
  try {
    return (await fetchSession(signal))[kind];
  } catch (error) {
    if (isAbort(error)) throw error;
    reportFailure(CHECK_FAILED[kind], error);
    return null as SessionView[K];
  }
}

/** POSTs the credentials (checked by the input schema first) and reads who signed in. */
export async function signIn<Input extends z.ZodType, View extends z.ZodType>(
  path: string,
  schemas: { input: Input; view: View },
  input: z.input<Input>,
): Promise<z.output<View>> {
  const body = schemas.input.parse(input);
  return schemas.view.parse(await apiFetch(path, { method: 'POST', body }));
}

export async function signOut(path: string): Promise<void> {
  await apiFetch<void>(path, { method: 'POST' });
}
