import type { CurrentUserView } from '@crm/projections/identity';
import { atom } from 'jotai';

/**
 * The instance user session as the UI knows it (spec-platform.md §4): unknown until checked,
 * then signed in (set by the check or by login) or signed out (cleared by logout whatever the
 * call's outcome). A session being checked again or signed out remembers the instance it
 * belonged to, so pages without an instance in their path can still send the visitor to the
 * right login.
 */
export type UserSession =
  { status: 'unknown'; instance?: string } | { status: 'signed-in'; user: CurrentUserView } | { status: 'signed-out'; instance?: string };

export const userSessionState = atom<UserSession>({ status: 'unknown' });

/** The instance the session belongs (or last belonged) to, if known. */
export function sessionInstance(session: UserSession): string | undefined {
  return session.status === 'signed-in' ? session.user.instance.subdomain : session.instance;
}
