import type { createUserInput } from '@crm/projections/identity';
import type { z } from 'zod';
import { validateNewUser } from '@/lib/validate-new-user';

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

const FIELD_ORDER: NewAdminField[] = ['username', 'displayName', 'pin'];

/**
 * Checks the form as Create New User does (the rules the server applies) and builds the
 * payload: the super admin only adds admins here, so the role is always admin.
 */
export function validateNewAdmin(
  form: NewAdminForm,
): { ok: true; value: ValidNewAdmin } | { ok: false; errors: NewAdminErrors; firstField: NewAdminField } {
  const result = validateNewUser({ ...form, role: 'admin' });
  if (result.ok) return { ok: true, value: { ...result.value, role: 'admin' } };
  const firstField = FIELD_ORDER.find((field) => result.errors[field]) ?? 'username';
  return { ok: false, errors: result.errors, firstField };
}
