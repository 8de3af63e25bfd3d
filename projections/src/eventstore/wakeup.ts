import { PgListener } from '../db/listener.ts';

/** How long a subscription waits before retrying a failed LISTEN connection. */
const LISTEN_RETRY_MS = 5_000;

/**
 * Wakes one subscription on NOTIFY, with polling as the fallback: the visibility horizon
 * also moves when unrelated transactions finish, which sends no notification. A failed
 * LISTEN connection degrades to polling and is opened again later.
 */
export class Wakeup {
  private notified = false;
  private wake: (() => void) | undefined;
  private readonly listener: PgListener;

  constructor(
    connectionString: string,
    /** The channel the store's appends notify. */
    channel: string,
    private readonly registry: Set<PgListener>,
    /** A NOTIFY whose payload this answers true for woke us by other means already (an append of this process). */
    alreadyWoken: (payload: string) => boolean = () => false,
  ) {
    this.listener = new PgListener({
      connectionString,
      channels: [channel],
      retryMs: LISTEN_RETRY_MS,
      onNotification: (message) => {
        if (!alreadyWoken(message.payload ?? '')) this.notify();
      },
    });
    registry.add(this.listener);
  }

  async listen(): Promise<void> {
    // Bounded (the listener's connect timeout): the subscription awaits this before it waits, so one that hung would stall it.
    await this.listener.startOrRetry();
  }

  /** A notification (or an append of this process): cuts the current or the next wait short. */
  notify(): void {
    this.notified = true;
    this.wake?.();
  }

  /** Call before each read: a notification arriving after this point cuts the next wait short. */
  arm(): void {
    this.notified = false;
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.notified || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }

  async close(): Promise<void> {
    this.registry.delete(this.listener);
    await this.listener.close();
  }
}
