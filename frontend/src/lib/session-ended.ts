import { SESSION_ENDED_REASONS, type SessionEndedReason } from '@crm/projections/contract';

/**
 * Why the server ended this tab's session (a lock, a closed CRM), kept until the next sign-in
 * so the sign-in page can say it: the session check and the first refused call learn it,
 * then the guard moves the person to that page. Per tab (sessionStorage), like the session.
 */
const KEY = 'crm.sessionEnded';

export function noteSessionEnded(reason: unknown): void {
  if (!SESSION_ENDED_REASONS.includes(reason as SessionEndedReason)) return;
  try {
    sessionStorage.setItem(KEY, reason as string);
  } catch {
    // Storage off: the sign-in page just cannot say why.
  }
}

export function sessionEndedReason(): SessionEndedReason | null {
  try {
    const stored = sessionStorage.getItem(KEY);
    return SESSION_ENDED_REASONS.includes(stored as SessionEndedReason) ? (stored as SessionEndedReason) : null;
  } catch {
    return null;
  }
}

export function forgetSessionEnded(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
