import { pinSchema, usernameSchema } from '@crm/projections/identity';

export interface LoginErrors {
  username?: string;
  pin?: string;
}

/** The first rule a value breaks, in the shared schema's words. */
function firstIssue(schema: typeof usernameSchema | typeof pinSchema, value: string): string | undefined {
  return schema.safeParse(value).error?.issues[0]?.message;
}

/**
 * Client-side checks of the instance login: both fields required,
 * username at least 3 characters, PIN exactly 4 digits.
 */
export function validateLogin({ username, pin }: { username: string; pin: string }): LoginErrors {
  const errors: LoginErrors = {};
  const usernameError = username.trim() ? firstIssue(usernameSchema, username) : 'Username is required';
  if (usernameError) errors.username = usernameError;
  const pinError = pin ? firstIssue(pinSchema, pin) : 'PIN is required';
  if (pinError) errors.pin = pinError;
  return errors;
}
