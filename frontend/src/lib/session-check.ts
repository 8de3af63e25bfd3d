import { z } from 'zod';
import { apiFetch } from './api-client';

/**
 * GET /api/session: who is signed in (an instance user, the super admin, or nobody). It answers
 * 200 either way, so a signed-out visit logs nothing; each side parses its own part.
 */
const sessionSchema = z.object({ user: z.unknown().nullable(), superAdmin: z.unknown().nullable() });

export type SessionAnswer = z.infer<typeof sessionSchema>;

export async function fetchSession(signal?: AbortSignal): Promise<SessionAnswer> {
  return sessionSchema.parse(await apiFetch('/api/session', { signal }));
}
