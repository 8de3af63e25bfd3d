import { PassThrough } from 'node:stream';
import { liveQuery, parseLiveId } from '@crm/projections/contract';
import type { AppDeps } from '../deps.ts';
import { SESSION_COOKIE } from '../http/session-cookie.ts';
import { access, userOf, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { UnauthorizedError } from '../shared/errors.ts';
import { LIVE_STREAMS_PER_SESSION, LiveHub } from './live-hub.ts';

/** Both path families; the instance is always the session's. */
export const LIVE_PATHS = ['/api/live', '/api/:instance/live'] as const;

const DOC: RouteDoc = {
  summary:
    'Live updates (Server-Sent Events): `change` messages name the kinds and records that changed in the instance ' +
    '({kinds, records: [{kind, id, revision}], truncated}), once the read models show them, as far as the user may read them. ' +
    `Reconnecting with Last-Event-ID (or lastEventId) resumes; at most ${LIVE_STREAMS_PER_SESSION} streams per session (the oldest is closed).`,
  tag: 'live',
  query: liveQuery,
  produces: 'text/event-stream',
};

/** One hub per running app (its deps): made with the first stream, ended by closeLiveStreams. */
const hubs = new WeakMap<AppDeps, LiveHub>();

export function liveHubOf(deps: AppDeps): LiveHub {
  let hub = hubs.get(deps);
  if (!hub) {
    hub = new LiveHub(deps);
    hubs.set(deps, hub);
  }
  return hub;
}

/** Ends the app's live streams: the server cannot close while they are open. */
export function closeLiveStreams(deps: AppDeps): void {
  hubs.get(deps)?.close();
  hubs.delete(deps);
}

export function registerLiveRoutes(router: ApiRouter, deps: AppDeps): void {
  for (const path of LIVE_PATHS) {
    router.get(
      path,
      access.signedIn,
      async (ctx) => {
        const me = userOf(ctx);
        const { lastEventId } = parseInput(liveQuery, ctx.query);
        // The browser's own reconnect sends the header; a screen opening the stream anew, the query.
        const from = parseLiveId(ctx.get('last-event-id') || lastEventId);
        const sessionKey = ctx.cookies.get(SESSION_COOKIE, { signed: true });
        if (!sessionKey) throw new UnauthorizedError();

        const socket = ctx.req.socket;
        socket.setTimeout(0);
        socket.setNoDelay(true);
        socket.setKeepAlive(true);
        ctx.status = 200;
        ctx.type = 'text/event-stream';
        ctx.set('Cache-Control', 'no-store');
        // Proxies (nginx) must pass each message on at once.
        ctx.set('X-Accel-Buffering', 'no');
        const out = new PassThrough();
        // The browser waits a second before reconnecting after a drop.
        out.write('retry: 1000\n\n');
        ctx.body = out;
        ctx.req.on('close', () => out.destroy());
        liveHubOf(deps)
          .attach(sessionKey, me, out, from)
          .catch((error: unknown) => {
            deps.logger.warn({ err: error }, 'live updates: a stream could not catch up');
            out.end();
          });
      },
      { doc: DOC },
    );
  }
}
