import { LOGIN_FAILED_MESSAGE, loginFailureMessage } from '@/components/login-form';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or PIN';
export { LOGIN_FAILED_MESSAGE };

/**
 * What the instance login form says about a failed sign-in. What the shop can act on, in the
 * server's words: a closed CRM (403), a locked account and for how long (423, told only after
 * the right PIN), too many attempts (429), bad input (400).
 */
export function loginErrorMessage(error: unknown): string {
  return loginFailureMessage(error, INVALID_CREDENTIALS_MESSAGE, [400, 403, 423, 429]);
}
