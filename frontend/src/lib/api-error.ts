import { localizeTimesInText } from '@crm/projections/contract';

/** Problem-details body the server answers with (RFC 9457 plus a `message` for display). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  message?: string;
  /** Extension members (e.g. a 409's `current`). */
  [extra: string]: unknown;
}

/** A non-2xx answer from the API. `message` is what a user may be shown. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly problem: ProblemDetails | undefined;

  constructor(status: number, message: string, problem?: ProblemDetails) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/**
 * Builds the error for a failed response body: the problem's `message` when there is one,
 * else "{status}: {text}" (the status text when the body is empty).
 */
export function apiErrorFromResponse(status: number, statusText: string, bodyText: string): ApiError {
  let problem: ProblemDetails | undefined;
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed as ProblemDetails;
  } catch {
    // Not JSON: fall back to the raw text.
  }
  const message =
    typeof problem?.message === 'string' && problem.message.trim() ? problem.message : `${status}: ${bodyText.trim() || statusText}`;
  // Times in the server's words are UTC; a person reads them in the shop's zone.
  return new ApiError(status, localizeTimesInText(message), problem);
}

/** The message to show for a failed call, or `fallback` when the error is not the server's. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.problem?.message ? error.message : fallback;
}

/**
 * The fields a failed call names, each with its message (the server's `errors: [{ field,
 * message }]`), so a form shows each at its field; the first message per field wins.
 */
export function problemFieldErrors(error: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  if (!(error instanceof ApiError)) return found;
  const errors = error.problem?.errors;
  if (!Array.isArray(errors)) return found;
  for (const entry of errors as unknown[]) {
    if (!entry || typeof entry !== 'object') continue;
    const { field, message } = entry as { field?: unknown; message?: unknown };
    if (typeof field !== 'string' || !field || typeof message !== 'string') continue;
    found[field] ??= localizeTimesInText(message);
  }
  return found;
}
