import { ApiError } from '@/lib/api-client';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or PIN';
export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';

/** What the instance login form says about a failed sign-in (spec-platform.md §8). */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return INVALID_CREDENTIALS_MESSAGE;
    // Throttled (the server says when to try again) or refused input: the server's words.
    if ((error.status === 429 || error.status === 400) && error.problem?.message) return error.message;
  }
  return LOGIN_FAILED_MESSAGE;
}
