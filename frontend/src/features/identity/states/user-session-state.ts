import type { CurrentUserView } from '@crm/projections/identity';
import { atom } from 'jotai';

/**
 * The instance user session as the UI knows it: unknown until checked,
 * then signed in (set by the check or by login) or signed out (cleared by logout whatever the
 * call's outcome). A session being checked again or signed out remembers the instance it
 * belonged to, so pages without an instance in their path can still send the visitor to the
 * right login.
 */
export type UserSession =
  { status: 'unknown'; instance?: string } | { status: 'signed-in'; user: CurrentUserView } | { status: 'signed-out'; instance?: string };

export const userSessionState = atom<UserSession>({ status: 'unknown' });

const LAST_INSTANCE_KEY = 'crm.lastInstance';

/**
 * The instance this browser last signed in to, kept across reloads and sign-outs (only its
 * slug): a signed-out page with no instance in its address (/profile, a 404, Back after
 * sign-out) leads staff to their own shop's sign-in, never to the provider's.
 */
export function rememberInstance(subdomain: string): void {
  try {
    localStorage.setItem(LAST_INSTANCE_KEY, subdomain);
  } catch {
    // Storage off (private mode): the session's own memory still serves this tab.
  }
}

export function rememberedInstance(): string | undefined {
  try {
    return localStorage.getItem(LAST_INSTANCE_KEY) || undefined;
  } catch {
    return undefined;
  }
}

/** The instance the session belongs (or last belonged) to, if known (after a reload: the one last signed in to). */
export function sessionInstance(session: UserSession): string | undefined {
  return session.status === 'signed-in' ? session.user.instance.subdomain : (session.instance ?? rememberedInstance());
}
