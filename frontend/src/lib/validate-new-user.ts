import { createUserInput, pinSchema, type Role } from '@crm/projections/identity';
import type { z } from 'zod';

/** A new user as an admin or the super admin types it in. */
export interface NewUserForm {
  username: string;
  displayName: string;
  pin: string;
  role: Role;
}

export type NewUserErrors = Partial<Record<keyof NewUserForm, string>>;

export const EMPTY_NEW_USER: NewUserForm = { username: '', displayName: '', pin: '', role: 'user' };

export const USERNAME_REQUIRED_MESSAGE = 'Username is required';
export const PIN_REQUIRED_MESSAGE = 'PIN is required';

/**
 * A new user's form checked with the shared schema, the rules the server applies
 *: username and PIN required, PIN exactly 4 digits.
 */
export function validateNewUser(
  form: NewUserForm,
): { ok: true; value: z.output<typeof createUserInput> } | { ok: false; errors: NewUserErrors } {
  const errors: NewUserErrors = {};
  if (!form.username.trim()) errors.username = USERNAME_REQUIRED_MESSAGE;
  if (!form.pin) errors.pin = PIN_REQUIRED_MESSAGE;
  const parsed = createUserInput.safeParse(form);
  if (parsed.success && !errors.username && !errors.pin) return { ok: true, value: parsed.data };
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if (field === 'username' || field === 'displayName' || field === 'pin' || field === 'role') errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The message for a new PIN that breaks the PIN rules, or undefined when it is fine. */
export function newPinError(pin: string): string | undefined {
  if (!pin) return PIN_REQUIRED_MESSAGE;
  const parsed = pinSchema.safeParse(pin);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}
