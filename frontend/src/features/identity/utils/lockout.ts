import { formatTime } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';

/** When a user is locked out after failed sign-ins now, until when; null when not. */
export function lockedOutUntil(user: Pick<UserView, 'signInLockedUntil'>, now: Date = new Date()): Date | null {
  if (!user.signInLockedUntil) return null;
  const until = new Date(user.signInLockedUntil);
  return until.getTime() > now.getTime() ? until : null;
}

/** "Locked out until 2:05 PM", by the shop's clock. */
export function lockedOutText(until: Date): string {
  return `Locked out until ${formatTime(until)}`;
}
