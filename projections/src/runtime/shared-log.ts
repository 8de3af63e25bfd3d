import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent, type SubscribeOptions } from '../eventstore/port.ts';

/** How many of the newest events the shared reader keeps for subscribers that trail it. */
const DEFAULT_CAPACITY = 1024;
/** A trailing subscriber's own reads, until it is back among what the shared reader keeps. */
const CATCH_UP_PAGE = 500;
/** A trailing subscriber whose own read found nothing (the log below it not yet visible) looks again after this. */
const CATCH_UP_RETRY_MS = 100;

/**
 * One reader of the log for every subscription of one process (or thread) on a store: the
 * projector and the reactors follow the same log, and each reading it on its own cost a
 * query, its rows and a LISTEN connection per subscriber. Every read is a round trip, and
 * on a busy machine a round trip's socket write is where the projector thread's time went.
 *
 * The shared reader follows the store's own subscription from where its first subscriber
 * starts and keeps the newest `capacity` events. A subscriber takes from them what comes
 * after its position; one that is further behind (it started from an older checkpoint, or
 * it was slow and the events it needs were dropped) reads pages of its own until it is back
 * among them. Either way each subscriber gets every event after its position once, in the
 * log's order, as from the store's subscription. The reader stops when its last subscriber
 * does; when it fails, its subscribers fail with its error and start again as they always
 * did (the next one starts a new reader).
 */
export function sharedSubscriptions(store: EventStore, capacity = DEFAULT_CAPACITY): EventStore {
  let known = shared.get(store);
  if (!known) {
    const log = new SharedLog(store, capacity);
    known = Object.assign(Object.create(store) as EventStore, { subscribeAll: (options: SubscribeOptions) => log.subscribe(options) });
    shared.set(store, known);
  }
  return known;
}

const shared = new WeakMap<EventStore, EventStore>();

class SharedLog {
  private reader: Reader | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly capacity: number,
  ) {}

  async *subscribe({ from, signal }: SubscribeOptions): AsyncGenerator<RecordedEvent> {
    const reader = this.join(from);
    try {
      let position = from;
      while (!signal?.aborted) {
        if (reader.failure) throw reader.failure.error;
        if (comparePositions(position, reader.floor) < 0) {
          // Behind what the reader keeps: read on our own until back among it.
          const page = await this.store.readAll(position, CATCH_UP_PAGE);
          for (const event of page) {
            yield event;
            position = event.position;
            if (signal?.aborted) return;
          }
          if (page.length === 0) await reader.wait(CATCH_UP_RETRY_MS, signal);
          continue;
        }
        const next = reader.after(position);
        if (next.length > 0) {
          for (const event of next) {
            yield event;
            position = event.position;
            if (signal?.aborted) return;
          }
          continue;
        }
        if (reader.ended) return;
        await reader.wait(undefined, signal);
      }
    } finally {
      this.leave(reader);
    }
  }

  private join(from: GlobalPosition): Reader {
    if (!this.reader || this.reader.failure || this.reader.ended) this.reader = new Reader(this.store, from, this.capacity);
    this.reader.subscribers++;
    return this.reader;
  }

  private leave(reader: Reader): void {
    reader.subscribers--;
    if (reader.subscribers > 0) return;
    reader.stop();
    if (this.reader === reader) this.reader = null;
  }
}

/** The store's subscription from `start`, its newest events kept in order. */
class Reader {
  subscribers = 0;
  /** Every event after this position that the reader has read is kept (those at or before it were dropped, or came before its start). */
  floor: GlobalPosition;
  failure: { error: unknown } | null = null;
  ended = false;
  private events: RecordedEvent[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly abort = new AbortController();

  constructor(
    store: EventStore,
    start: GlobalPosition,
    private readonly capacity: number,
  ) {
    this.floor = start;
    void this.read(store, start);
  }

  /** The kept events after `position` (none when it is at or past the newest read). */
  after(position: GlobalPosition): RecordedEvent[] {
    const events = this.events;
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions(events[middle]!.position, position) <= 0) low = middle + 1;
      else high = middle;
    }
    return low === events.length ? [] : events.slice(low);
  }

  /** Until the reader has more (or ends, or fails), the signal aborts, or `timeoutMs` passes. */
  async wait(timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  stop(): void {
    this.abort.abort();
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private async read(store: EventStore, start: GlobalPosition): Promise<void> {
    try {
      // Events arrive a page at a time: subscribers are woken once the page is in, not per event.
      let waking = false;
      for await (const event of store.subscribeAll({ from: start, signal: this.abort.signal })) {
        this.events.push(event);
        if (this.events.length > this.capacity * 2) {
          // Dropped in bulk: a copy of `capacity` references now and then, not a shift per event.
          const dropped = this.events.length - this.capacity;
          this.floor = this.events[dropped - 1]!.position;
          this.events = this.events.slice(dropped);
        }
        if (!waking) {
          waking = true;
          setImmediate(() => {
            waking = false;
            this.wake();
          });
        }
      }
    } catch (error) {
      if (!this.abort.signal.aborted) this.failure = { error };
    } finally {
      this.ended = true;
      this.wake();
    }
  }
}
