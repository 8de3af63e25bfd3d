import type { RouteInfo } from './router.ts';

/**
 * Every status a route can answer, in one place: what the route's doc declares (its success
 * status and `answers`) and what the generic layers in front of every handler add (input
 * checks, the session guard, the cross-site guard, the body parser, idempotency keys, a
 * database outage). The API document lists exactly these, and under the tests the router
 * refuses to answer anything else, so the document and the server cannot drift apart.
 */
export const STATUS_TEXT: Record<number, string> = {
  200: 'Success',
  201: 'Created',
  204: 'No content',
  400: 'Bad request: a field, query parameter, path parameter or header is not valid (named in the detail)',
  401: 'Not signed in (or the session ended)',
  403: 'Not allowed: the role or a permission is missing, or a write without the cross-site header',
  404: 'No such record, instance or endpoint (or the feature is off for this instance)',
  409: 'Conflict: the record changed meanwhile, or a request with the same Idempotency-Key is still running',
  413: 'Request body over 1 MB',
  415: 'Request body not sent as application/json',
  422: 'This Idempotency-Key was already used for a different request',
  423: 'Locked',
  429: 'Too many requests: wait (Retry-After) and try again',
  503: 'The database is briefly unavailable: try again (Retry-After)',
};

/** The success status a route answers when its doc does not say: 201 for a POST, else 200. */
export function successStatus(route: Pick<RouteInfo, 'method' | 'doc'>): number {
  return route.doc?.status ?? (route.method === 'POST' ? 201 : 200);
}

/** Every status of a route, each with when it is answered (the route's own words first). */
export function routeStatuses(route: Pick<RouteInfo, 'method' | 'access' | 'doc'>): Map<number, string> {
  const statuses = new Map<number, string>();
  const add = (status: number, text = STATUS_TEXT[status] ?? 'Error') => {
    if (!statuses.has(status)) statuses.set(status, text);
  };
  add(successStatus(route));
  for (const [status, text] of Object.entries(route.doc?.answers ?? {})) add(Number(status), text);
  const isPublic = route.access.kind === 'public';
  const writes = route.method !== 'GET';
  add(400);
  if (!isPublic) add(401);
  if (!isPublic || writes) add(403);
  add(404);
  if (writes) {
    add(413);
    add(415);
  }
  if (writes && !isPublic) {
    add(409);
    add(422);
  }
  if (route.method === 'PUT' || route.method === 'PATCH') add(409);
  add(503);
  return new Map([...statuses.entries()].sort(([a], [b]) => a - b));
}
