import { PgListener } from '../db/listener.ts';
import type { ThreadSignal } from './thread-signal.ts';

/** How long a subscription waits before retrying a failed LISTEN connection. */
const LISTEN_RETRY_MS = 5_000;

/**
 * Wakes one subscription on NOTIFY, or on an append of another thread of this process (the
 * counter they share), with polling as the fallback: the visibility horizon also moves when
 * unrelated transactions finish, which sends no notification. A failed LISTEN connection
 * degrades to polling and is opened again later.
 */
export class Wakeup {
  private notified = false;
  /** The shared append counter when the subscription last armed (before its read). */
  private seen = 0;
  private wake: (() => void) | undefined;
  private readonly listener: PgListener;

  constructor(
    connectionString: string,
    /** The channel the store's appends notify. */
    channel: string,
    private readonly registry: Set<PgListener>,
    /** Appends of the process's other threads; its store calls `notify` when they move it. */
    private readonly threads: ThreadSignal,
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

  /** Call before each read: a notification or append arriving after this point cuts the next wait short. */
  arm(): void {
    this.notified = false;
    this.seen = this.threads.count();
  }

  async wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.notified || signal.aborted) return;
    // An append since the read began (the counter moved) ends the wait at once; otherwise
    // the store watches the counter from that read on, so no append in between is missed.
    this.threads.watch(this.seen);
    if (this.notified) return;
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
