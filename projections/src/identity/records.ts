/**
 * The events that change a user's account record as the admin screens show it (role,
 * permissions, lock; creation and deletion). Its revision (`UserView.revision`, the ETag
 * of the user commands) is the stream revision of the last of these. Sign-in bookkeeping
 * (signed in, failed, throttled) and PIN changes are left out: they show nowhere an admin
 * could have read them, so a user signing in or changing their PIN (or an admin resetting
 * it) never makes an admin's copy stale.
 */
export const USER_RECORD_EVENT_TYPES = [
  'UserCreated',
  'UserRoleChanged',
  'UserPermissionsChanged',
  'UserLocked',
  'UserUnlocked',
  'UserDeleted',
] as const;

export function isUserRecordEvent(type: string): boolean {
  return (USER_RECORD_EVENT_TYPES as readonly string[]).includes(type);
}

/** The account record's revision: the stream revision of its last record event; null when there is none. */
export function userRecordRevision(events: ReadonlyArray<{ type: string; revision: number }>): number | null {
  for (let i = events.length - 1; i >= 0; i--) if (isUserRecordEvent(events[i]!.type)) return events[i]!.revision;
  return null;
}
