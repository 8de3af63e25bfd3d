import type { Context, Next } from 'koa';
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from '@crm/projections/db/unavailable';
import { AppError, type ErrorKind } from '../shared/errors.ts';
import { isApiPath } from './security.ts';

/** Each kind of domain error as the HTTP answer names it. */
export const HTTP_STATUS_OF: Record<ErrorKind, { status: number; title: string }> = {
  validation: { status: 400, title: 'Bad Request' },
  unauthenticated: { status: 401, title: 'Unauthorized' },
  'not-allowed': { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  conflict: { status: 409, title: 'Conflict' },
  gone: { status: 410, title: 'Gone' },
  'too-large': { status: 413, title: 'Payload Too Large' },
  unprocessable: { status: 422, title: 'Unprocessable Content' },
  locked: { status: 423, title: 'Locked' },
  'too-many-requests': { status: 429, title: 'Too Many Requests' },
  unavailable: { status: 503, title: 'Service Unavailable' },
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The client reads `message`; it repeats `detail`. */
  message: string;
  [extra: string]: unknown;
}

export function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}): Problem {
  return { type: 'about:blank', title, status, detail, message: detail, ...extra };
}

function fromHttpError(error: { status?: number; statusCode?: number; type?: string; expose?: boolean; message?: string }): Problem | null {
  const status = error.status ?? error.statusCode;
  if (!status || status < 400 || status >= 500) return null;
  if (status === 413) return problem(413, 'Payload Too Large', 'Request body is too large (limit 1 MB)');
  if (error.type === 'entity.parse.failed' || status === 400) {
    return problem(
      400,
      'Bad Request',
      error.type === 'entity.parse.failed' ? 'Malformed JSON in request body' : (error.message ?? 'Bad request'),
    );
  }
  if (status === 415) return problem(415, 'Unsupported Media Type', 'Send the request body as application/json');
  return problem(status, 'Error', error.expose && error.message ? error.message : 'Request failed');
}

/** First in the chain: every error becomes RFC 9457 problem details; no stack reaches the client. */
export async function problemDetails(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    // An error status without a body (no route, a method the route does not take) is
    // problem details too, on any path: a client never has to parse plain text.
    if (ctx.status >= 400 && (ctx.body === undefined || ctx.body === null)) {
      // A method nobody implements (the router says 501) is the client's mistake like any
      // other method a path does not take: a 405, never a 5xx.
      const status = ctx.status === 501 ? 405 : ctx.status;
      const body =
        status === 404
          ? problem(404, 'Not Found', isApiPath(ctx.path) ? `No such endpoint: ${ctx.method} ${ctx.path}` : `Not found: ${ctx.path}`)
          : status === 405
            ? problem(405, 'Method Not Allowed', `${ctx.method} is not allowed here; allowed: ${ctx.response.get('Allow') || 'none'}`)
            : problem(status, 'Error', 'Request failed');
      ctx.type = 'application/problem+json';
      ctx.body = body;
      ctx.status = status;
    }
  } catch (error) {
    let body: Problem;
    if (error instanceof AppError) {
      const { status, title } = HTTP_STATUS_OF[error.kind];
      body = problem(status, title, error.message, error.extra);
      // An error that knows when to come back (a lockout, an outage) says so the HTTP way too.
      if (typeof error.extra.retryAfterSeconds === 'number') ctx.set('Retry-After', String(error.extra.retryAfterSeconds));
    } else if (isDatabaseUnavailable(error)) {
      // The database is down or restarting: not the request's fault and not a bug. The
      // pools reconnect by themselves; the client is told when to try again.
      body = problem(503, 'Service Unavailable', 'The service is briefly unavailable. Please try again in a few seconds.');
      ctx.set('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
    } else {
      body = fromHttpError(error as object) ?? problem(500, 'Internal Server Error', 'Something went wrong on our side. Please try again.');
      if (body.status === 500) ctx.app.emit('error', error, ctx);
    }
    ctx.status = body.status;
    ctx.type = 'application/problem+json';
    ctx.body = body;
  }
}

/**
 * Requests Node's HTTP parser refuses before any middleware sees them (a URL or headers over
 * its size limit, a malformed request line) are answered as problem details too, instead of
 * Node's bare status line.
 */
export function answerClientErrors(server: import('node:http').Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { bytesParsed?: number }, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
      socket.destroy();
      return;
    }
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const title = tooLarge ? 'Request Header Fields Too Large' : 'Bad Request';
    const detail = tooLarge ? 'The request line or headers are too large' : 'The request is not valid HTTP';
    const body = JSON.stringify(problem(status, title, detail));
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
