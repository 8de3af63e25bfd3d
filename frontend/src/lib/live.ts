import { LIVE_EVENTS, liveChangeSchema, liveClosedSchema, type LiveChange, type LiveCloseReason } from '@crm/projections/contract';
import { reportFailure } from './report-failure';

/**
 * Live updates in the browser: one Server-Sent Events stream per tab (GET /api/{instance}/live).
 * The browser reconnects by itself after a drop and sends its Last-Event-ID, so the server
 * sends what was missed; when the stream cannot go on (a refusal, a server that answered
 * something else), it is opened again after a pause, with the last id in the query.
 * Screens do not open streams: the app opens one and reads the changed queries again.
 */

export type LiveMessage = { type: 'change'; change: LiveChange } | { type: 'reset' } | { type: 'closed'; reason: LiveCloseReason };
type LiveListener = (message: LiveMessage) => void;

const listeners = new Set<LiveListener>();

/** Told every message of this tab's stream; returns the unsubscribe. */
export function onLiveMessage(listener: LiveListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(message: LiveMessage): void {
  for (const listener of [...listeners]) {
    try {
      listener(message);
    } catch (error) {
      reportFailure('A live-update listener failed', error);
    }
  }
}

/** Pauses before opening a closed stream again: quick at first, then at most every 30 s. */
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];

/**
 * Opens the tab's stream for an instance and keeps it open until the returned function is
 * called. Messages go to the listeners (`onLiveMessage`).
 */
export function connectLive(instance: string): () => void {
  let source: EventSource | null = null;
  let lastEventId = '';
  let failures = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const open = () => {
    const query = lastEventId ? `?${new URLSearchParams({ lastEventId })}` : '';
    const current = new EventSource(`/api/${encodeURIComponent(instance)}/live${query}`);
    source = current;
    const remember = (event: MessageEvent) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      failures = 0;
    };
    current.addEventListener(LIVE_EVENTS.ready, (event) => remember(event));
    current.addEventListener(LIVE_EVENTS.change, (event) => {
      remember(event);
      const parsed = liveChangeSchema.safeParse(safeJson(event.data));
      // A message this screen cannot read: read everything again rather than miss it.
      emit(parsed.success ? { type: 'change', change: parsed.data } : { type: 'reset' });
    });
    current.addEventListener(LIVE_EVENTS.reset, (event) => {
      remember(event);
      emit({ type: 'reset' });
    });
    current.addEventListener(LIVE_EVENTS.closed, (event) => {
      remember(event);
      // Ended for good: the browser's own reconnect would only be refused (or, past the
      // per-session cap, close another tab's stream in turn).
      current.close();
      const parsed = liveClosedSchema.safeParse(safeJson(event.data));
      const reason = parsed.success ? parsed.data.reason : 'signed-out';
      emit({ type: 'closed', reason });
      // A tab closed for a newer one's sake opens again when someone looks at it.
      if (reason === 'too-many-streams') waitUntilVisible();
    });
    current.onerror = () => {
      // CONNECTING: the browser is reconnecting by itself (with Last-Event-ID). CLOSED: it gave up.
      if (current.readyState !== EventSource.CLOSED || stopped) return;
      const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]!;
      failures += 1;
      retry = setTimeout(() => {
        retry = null;
        if (!stopped) open();
      }, wait);
    };
  };

  const handleVisible = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', handleVisible);
    if (!stopped) open();
  };
  const waitUntilVisible = () => document.addEventListener('visibilitychange', handleVisible);

  open();
  return () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    document.removeEventListener('visibilitychange', handleVisible);
    source?.close();
  };
}

function safeJson(text: unknown): unknown {
  try {
    return JSON.parse(String(text));
  } catch {
    return null;
  }
}
