import { ApiError } from '@/lib/api-client';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or PIN';
export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';

/** What the instance login form says about a failed sign-in. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return INVALID_CREDENTIALS_MESSAGE;
    // What the shop can act on, in the server's words: a closed CRM (403), a locked account
    // and for how long (423, told only after the right PIN), too many attempts (429), bad input (400).
    if ([400, 403, 423, 429].includes(error.status) && error.problem?.message) return error.message;
  }
  return LOGIN_FAILED_MESSAGE;
}
