import { apiErrorFromResponse } from './api-error';

export { ApiError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiFetchOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
}

/**
 * The one way the client talks to /api: cookies included, JSON in and out.
 * Every non-GET carries `X-CRM-Request: 1`; the server refuses mutating calls without it
 * (a cross-site form or image cannot set a custom header).
 * Resolves with the parsed JSON body (undefined for an empty body, e.g. 204); throws ApiError
 * for any non-2xx answer and lets network errors (TypeError) through.
 */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-CRM-Request'] = '1';
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const response = await fetch(path, { method, headers, body, credentials: 'include', signal: options.signal });
  const text = await response.text();
  if (!response.ok) throw apiErrorFromResponse(response.status, response.statusText, text);
  if (!text) return undefined as T;
  return JSON.parse(text) as T;
}
