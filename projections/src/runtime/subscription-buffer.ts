import type { EventStore, GlobalPosition, RecordedEvent } from '../eventstore/port.ts';
import { pause } from '../shared/pause.ts';

/**
 * The log read ahead of a projector: a catch-up subscription from a position into a buffer
 * the projector takes its batches from. It reads at most `readAhead` events ahead (the writer
 * drains first), and wakes a waiting projector when events come, the subscription ends or the
 * session stops. The subscription's failure is kept, not left in a rejected promise: the
 * projector may be busy with a batch for seconds (retrying through an outage) before it asks,
 * and a rejection nobody handles by then ends the whole process.
 */
export class SubscriptionBuffer {
  private readonly events: RecordedEvent[] = [];
  private wake: (() => void) | null = null;
  private failure: { error: unknown } | null = null;
  private ended = false;
  private readonly reading: Promise<void>;
  /** When the oldest event in the buffer arrived (performance.now()), as near as it is kept. */
  private oldestArrival = 0;

  constructor(
    store: EventStore,
    from: GlobalPosition,
    private readonly signal: AbortSignal,
    readAhead: number,
  ) {
    this.reading = this.read(store, from, readAhead);
    // One listener for the whole session: stopping wakes an idle wait.
    signal.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  get size(): number {
    return this.events.length;
  }

  /** The subscription has ended (stopped, failed, or the store ended it). */
  get done(): boolean {
    return this.ended;
  }

  /**
   * When the oldest event in the buffer arrived (performance.now()). Kept per arrival into an
   * empty buffer, not per event: after a take that leaves some, it is the take's time.
   */
  get oldestArrivedAt(): number {
    return this.oldestArrival;
  }

  /** Takes up to `count` events, oldest first. */
  take(count: number): RecordedEvent[] {
    const taken = this.events.splice(0, count);
    if (this.events.length > 0) this.oldestArrival = performance.now();
    return taken;
  }

  /** Waits for events, the subscription's end or the session's stop; also at most `timeoutMs` when given. */
  async wait(timeoutMs?: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.wake = resolve;
      if (timeoutMs !== undefined) timer = setTimeout(resolve, timeoutMs);
    });
    clearTimeout(timer);
    this.wake = null;
  }

  /** Waits until the subscription has ended (stop the session first); what it failed with, if it did. */
  async finish(): Promise<{ error: unknown } | null> {
    await this.reading;
    return this.failure;
  }

  private async read(store: EventStore, from: GlobalPosition, readAhead: number): Promise<void> {
    try {
      for await (const event of store.subscribeAll({ from, signal: this.signal })) {
        if (this.events.push(event) === 1) this.oldestArrival = performance.now();
        this.wake?.();
        // Back-pressure: let the writer drain before reading further ahead.
        while (this.events.length >= readAhead && !this.signal.aborted) await pause(5);
      }
    } catch (error) {
      this.failure = { error };
    } finally {
      this.ended = true;
      this.wake?.();
    }
  }
}
