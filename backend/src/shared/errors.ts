/**
 * What went wrong, in the domain's words. Deciders and services throw these; the one
 * error middleware (http/problem.ts) gives each kind its HTTP status as problem details.
 */
export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  | 'not-allowed'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'too-large'
  | 'unprocessable'
  | 'locked'
  | 'too-many-requests'
  | 'unavailable';

/** A typed domain error: its kind, the message the user reads, and what else the answer carries (field errors, the current record). */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** One field's refusal, as a 400's `errors` lists it. */
export interface FieldError {
  field: string;
  message: string;
}

/**
 * A 400. A refusal that concerns fields lists them in `errors` (each with its own message);
 * a bare `field` beside the message is not a shape clients read, so the type forbids it.
 */
export class ValidationError extends AppError {
  constructor(
    message: string,
    extra: { errors?: Array<FieldError | { field: string | null; message: string }>; field?: never; [key: string]: unknown } = {},
  ) {
    super('validation', message, extra);
  }
}

/** The refusal of one field's value: its message, and the field in `errors` as every field refusal carries it. */
export function invalidField(field: string, message: string): ValidationError {
  return new ValidationError(message, { errors: [{ field, message }] });
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Not authenticated', extra: Record<string, unknown> = {}) {
    super('unauthenticated', message, extra);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this') {
    super('not-allowed', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super('not-found', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super('conflict', message, extra);
  }
}

/**
 * A save on a stale copy (its `If-Match` names an older revision): the 409 carries the
 * record as it is now (`current`), so the caller can show it, merge or reload. One shape
 * for every record kind.
 */
export class StaleRecordError extends ConflictError {
  constructor(what: 'job' | 'customer' | 'user' | 'vehicle', current: unknown) {
    super(`This ${what} was changed by someone else. Reload it and try again.`, { current });
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message = 'Too many attempts. Please wait a moment and try again.') {
    super('too-many-requests', message);
  }
}
