import { apiErrorFromResponse } from './api-error';

export { ApiError } from './api-error';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiFetchOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. `If-Match`). */
  headers?: Record<string, string>;
}

export interface ApiResponse<T> {
  data: T;
  headers: Headers;
}

/**
 * The one way the client talks to /api: cookies included, JSON in and out.
 * Every non-GET carries `X-CRM-Request: 1`; the server refuses mutating calls without it
 * (a cross-site form or image cannot set a custom header).
 * Resolves with the parsed JSON body (undefined for an empty body, e.g. 204); throws ApiError
 * for any non-2xx answer and lets network errors (TypeError) through.
 */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  return (await apiFetchWithHeaders<T>(path, options)).data;
}

/** Like apiFetch, and also hands back the response headers (e.g. `ETag`). */
export async function apiFetchWithHeaders<T = unknown>(path: string, options: ApiFetchOptions = {}): Promise<ApiResponse<T>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (method !== 'GET') headers['X-CRM-Request'] = '1';
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const response = await fetch(path, { method, headers, body, credentials: 'include', signal: options.signal });
  const text = await response.text();
  if (!response.ok) throw apiErrorFromResponse(response.status, response.statusText, text);
  return { data: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}
