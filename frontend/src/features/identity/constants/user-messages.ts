/** Fallback texts when the server gives no message. */
export const USER_ERRORS = {
  fetch: 'Failed to fetch users',
  create: 'Failed to create user',
  delete: 'Failed to delete user',
  lock: 'Failed to lock user',
  unlock: 'Failed to unlock user',
  clearLockout: 'Failed to clear the lockout',
  role: 'Failed to update user role',
  permissions: 'Failed to update permissions',
} as const;

export const PIN_HINT = 'PIN must be exactly 4 digits.';
