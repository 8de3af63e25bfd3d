/** Typed domain errors; the HTTP edge maps each to one status as problem details. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(400, 'Bad Request', message, extra);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Not authenticated', extra: Record<string, unknown> = {}) {
    super(401, 'Unauthorized', message, extra);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'You do not have permission to do this') {
    super(403, 'Forbidden', message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, 'Not Found', message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(409, 'Conflict', message, extra);
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
    super(429, 'Too Many Requests', message);
  }
}
