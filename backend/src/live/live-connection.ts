import type { Writable } from 'node:stream';
import { LIVE_EVENTS, liveId, type LiveCloseReason } from '@crm/projections/contract';
import type { GlobalPosition } from '@crm/projections/eventstore/port';
import type { UserPrincipal } from '../http/auth.ts';

/** A stream whose client does not read: past this much unsent text it is closed (the browser reconnects and resumes). */
const MAX_UNSENT_BYTES = 1024 * 1024;

/** One open stream (a browser tab). */
export class LiveConnection {
  /** Everything up to here has been sent (or was not this user's to hear). */
  sentUpTo: GlobalPosition;
  closed = false;
  /** Registered with the hub's broadcasts (after its catch-up). */
  live = false;
  /**
   * Set when the stream is to end once it has been sent the log up to here: the change that
   * ended its session (an instance closed, a user locked in another process) is sent first.
   */
  endsAt: GlobalPosition | null = null;
  readonly openedAt = performance.now();

  constructor(
    readonly sessionKey: string,
    public principal: UserPrincipal,
    private readonly out: Writable,
    from: GlobalPosition,
    private readonly onClose: (connection: LiveConnection) => void,
  ) {
    this.sentUpTo = from;
    out.on('close', () => this.close());
    // A client gone mid-write: the stream just ends (the browser reconnects if it is still there).
    out.on('error', () => this.close());
  }

  /** One SSE message; `id` moves the browser's Last-Event-ID. */
  send(event: string, id: GlobalPosition, data: unknown): void {
    this.write(`event: ${event}\nid: ${liveId(id)}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** A comment (ignored by the browser) that also carries the position: an id with no data moves Last-Event-ID without an event. */
  heartbeat(): void {
    this.write(`id: ${liveId(this.sentUpTo)}\n: keep-alive\n\n`);
  }

  private write(text: string): void {
    if (this.closed || this.out.destroyed || this.out.writableEnded) return;
    this.out.write(text);
    if (this.out.writableLength > MAX_UNSENT_BYTES) this.close();
  }

  /** Ends the stream; with a reason, the browser is told not to reconnect (a plain end makes it reconnect and resume). */
  close(reason?: LiveCloseReason): void {
    if (this.closed) return;
    if (reason) this.send(LIVE_EVENTS.closed, this.sentUpTo, { reason });
    this.closed = true;
    this.live = false;
    this.out.end();
    this.onClose(this);
  }
}
