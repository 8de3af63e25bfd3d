/** Telling a failure outside the event (try again later) from one the event itself causes. */

/**
 * A handler's way of saying "this failed for a reason outside the event; try again later"
 * (a write conflict that outlived its retries, a service not answering): the batch backs
 * off and is retried, the event is never parked for it.
 */
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

/**
 * Failures that say nothing about the event: the connection, the server's state, locks,
 * a missing table or permission. SQLSTATE classes 08 connection, 25 transaction state,
 * 28 authorization, 3D/3F catalog/schema, 40 rollback (serialization, deadlock), 42 syntax
 * or access (a schema that is not there yet), 53 resources, 55 object state (locks),
 * 57 operator intervention, 58 system, XX internal. Data errors (22, 23) and anything a
 * handler throws on its own (a schema that does not parse) are the event's.
 */
export function isTransientFailure(error: unknown): boolean {
  if (error instanceof TransientError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    if (/^(08|25|28|3D|3F|40|42|53|55|57|58|XX)[0-9A-Z]{3}$/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH'].includes(code)) return true;
  }
  if (error instanceof Error) {
    if (error.name === 'KnexTimeoutError') return true;
    if (
      /connection terminated|connection (?:is )?closed|client has encountered a connection error|cannot use a pool after/i.test(
        error.message,
      )
    )
      return true;
  }
  return false;
}
