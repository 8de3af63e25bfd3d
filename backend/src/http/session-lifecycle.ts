import type { Context } from 'koa';
import { IDLE_TIMEOUT_MS, type SessionData } from './session-store.ts';

/**
 * Signing a browser in and out, the same for staff and the super admin: a new session id at
 * sign-in (a session fixed before it is worthless), the signed-in one's data, and the idle
 * timeout of its kind.
 */
export async function startSession(ctx: Context, data: SessionData): Promise<void> {
  await ctx.session!.regenerate();
  Object.assign(ctx.session!, data);
  ctx.session!.maxAge = IDLE_TIMEOUT_MS[data.kind];
}

/** Ends the browser's session (signed out already: nothing to end); answers 204 either way. */
export function endSession(ctx: Context): void {
  ctx.session = null;
  ctx.status = 204;
}
