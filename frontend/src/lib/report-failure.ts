import { ApiError } from './api-error';

/** A request the app (or the browser) called off: a query removed or replaced, a page left. */
export function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/**
 * Failures that are outcomes, not faults: an aborted request, or a 4xx answer (a wrong PIN, a
 * validation error, a conflict, a lock), which the screen shows to the user in words.
 */
export function isExpectedFailure(error: unknown): boolean {
  return isAbort(error) || (error instanceof ApiError && error.status >= 400 && error.status < 500);
}

/**
 * Logs a failure to the console only when it is a fault (a 5xx, a network error, a bug): the
 * console stays clean in normal use, and what is there is worth reading.
 */
export function reportFailure(context: string, error: unknown): void {
  if (!isExpectedFailure(error)) console.error(context, error);
}
