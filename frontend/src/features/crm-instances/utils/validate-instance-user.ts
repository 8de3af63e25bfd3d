import { createUserInput, pinSchema } from '@crm/projections/domain';
import type { z } from 'zod';

/** The "Add admin" form of the Manage users dialog. */
export interface NewAdminForm {
  username: string;
  displayName: string;
  pin: string;
}

export type NewAdminField = keyof NewAdminForm;
export type NewAdminErrors = Partial<Record<NewAdminField, string>>;
export type ValidNewAdmin = z.output<typeof createUserInput> & { role: 'admin' };

export const EMPTY_NEW_ADMIN: NewAdminForm = { username: '', displayName: '', pin: '' };

export const USERNAME_REQUIRED_MESSAGE = 'Username is required';
export const PIN_REQUIRED_MESSAGE = 'PIN is required';

const FIELD_ORDER: NewAdminField[] = ['username', 'displayName', 'pin'];

/**
 * Checks the form with the shared schema (the rules the server applies) and builds the
 * payload: the super admin only adds admins here, so the role is always admin.
 */
export function validateNewAdmin(
  form: NewAdminForm,
): { ok: true; value: ValidNewAdmin } | { ok: false; errors: NewAdminErrors; firstField: NewAdminField } {
  const errors: NewAdminErrors = {};
  if (!form.username.trim()) errors.username = USERNAME_REQUIRED_MESSAGE;
  if (!form.pin) errors.pin = PIN_REQUIRED_MESSAGE;

  const parsed = createUserInput.safeParse({ ...form, role: 'admin' });
  if (parsed.success && !errors.username && !errors.pin) return { ok: true, value: { ...parsed.data, role: 'admin' } };

  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if (typeof field === 'string' && FIELD_ORDER.includes(field as NewAdminField)) errors[field as NewAdminField] ??= issue.message;
  }
  const firstField = FIELD_ORDER.find((field) => errors[field]) ?? 'username';
  return { ok: false, errors, firstField };
}

/** The message for a new PIN that breaks the PIN rules, or undefined when it is fine. */
export function newPinError(pin: string): string | undefined {
  if (!pin) return PIN_REQUIRED_MESSAGE;
  const parsed = pinSchema.safeParse(pin);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}
