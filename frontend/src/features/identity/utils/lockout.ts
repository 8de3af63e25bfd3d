import type { UserView } from '@crm/projections/identity';

/** When a user is locked out after failed sign-ins now, until when; null when not. */
export function lockedOutUntil(user: Pick<UserView, 'signInLockedUntil'>, now: Date = new Date()): Date | null {
  if (!user.signInLockedUntil) return null;
  const until = new Date(user.signInLockedUntil);
  return until.getTime() > now.getTime() ? until : null;
}

/** "Locked out until 14:05", in the viewer's clock. */
export function lockedOutText(until: Date): string {
  return `Locked out until ${until.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}
