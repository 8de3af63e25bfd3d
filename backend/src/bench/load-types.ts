/**
 * What the benchmark asks its load generator (a child process running autocannon) to do,
 * and what it answers. Plain data, sent over the child's IPC channel.
 */

/** One session (or none) and the path it sends its requests to, rotated request by request. */
export interface LoadTarget {
  /** The request path (a collection, e.g. `/api/bench0/pipeline`). */
  path: string;
  /** `Cookie` header of a signed-in session; none for the baseline server. */
  cookie?: string;
  /** Ids taken in turn: a job to update (appended to the path), or a customer a new job is for. */
  ids?: string[];
}

/**
 * `get`: GET the path. `create-job`: POST a new job (for the next of the target's
 * customers). `update-job`: PUT a changed note to the next of the target's jobs.
 */
export type LoadKind = 'get' | 'create-job' | 'update-job';

export interface LoadSpec {
  /** Origin, e.g. http://127.0.0.1:4000. */
  url: string;
  kind: LoadKind;
  /** Request i goes to targets[i % targets.length]. */
  targets: LoadTarget[];
  connections: number;
  /** Seconds. */
  duration: number;
  /** Requests per second over all connections, evenly spaced (runPaced); none: as fast as answered. */
  overallRate?: number;
}

export interface LoadResult {
  /** 2xx answers per second. */
  rps: number;
  ok: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** A few statuses other than 2xx with their counts, to say what went wrong. */
  statuses: Record<string, number>;
  latency: { mean: number; p50: number; p90: number; p99: number; max: number };
  durationS: number;
}

export type LoadRequest = { id: number; spec: LoadSpec };
export type LoadReply = { id: number; result?: LoadResult; error?: string };
