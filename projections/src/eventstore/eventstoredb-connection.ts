import { esdb } from './eventstoredb-client.ts';

/** The EventStoreDB connection: its keepalive defaults, and telling a store out of reach from a refused request. */

/**
 * gRPC keepalive of the connection, unless the connection string sets it: a ping after 5 s
 * without traffic, the connection given up when 5 s pass without its answer. A node that
 * went away is then noticed in seconds (the client's defaults are 10 s each), and calls
 * fail over to another node or fail as unavailable.
 */
export const KEEPALIVE_DEFAULTS = { keepAliveInterval: 5000, keepAliveTimeout: 5000 } as const;

/**
 * EventStoreDB could not be reached (no leader, connection lost, deadline passed). It
 * carries the code of a cut connection, so every check for an unreachable store treats it
 * as one: the API answers 503 with Retry-After, the projector retries after a pause.
 */
export class EventStoreUnavailableError extends Error {
  override readonly name = 'EventStoreUnavailableError';
  readonly code = 'ECONNRESET';
  constructor(operation: string, cause: unknown) {
    super(`EventStoreDB is unavailable (${operation}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Errors of the connection rather than of the request: the store is (briefly) out of reach. */
export function isEventStoreConnectionError(error: unknown): boolean {
  const { CancelledError, DeadlineExceededError, NotLeaderError, UnavailableError } = esdb();
  if (error instanceof EventStoreUnavailableError) return true;
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError || error instanceof NotLeaderError) return true;
  // A call cancelled by the transport (not by us: our own aborts are handled before this).
  if (error instanceof CancelledError) return true;
  // Raw gRPC statuses the client passes on unconverted: 4 DEADLINE_EXCEEDED, 14 UNAVAILABLE.
  const code = (error as { code?: unknown } | null)?.code;
  return code === 14 || code === 4;
}

/** The connection string with the keepalive defaults added where it does not set them. */
export function withConnectionDefaults(connectionString: string): string {
  const query = connectionString.includes('?') ? connectionString.slice(connectionString.indexOf('?') + 1) : '';
  const present = new Set(query.split('&').map((pair) => pair.split('=')[0]!.toLowerCase()));
  const added = Object.entries(KEEPALIVE_DEFAULTS)
    .filter(([key]) => !present.has(key.toLowerCase()))
    .map(([key, value]) => `${key}=${value}`);
  if (added.length === 0) return connectionString;
  return `${connectionString}${connectionString.includes('?') ? (query ? '&' : '') : '?'}${added.join('&')}`;
}
