import { randomUUID } from 'node:crypto';

/**
 * How the threads of one process tell each other "an append committed" without a message per
 * append: one SharedArrayBuffer per database holding a counter that every append bumps and
 * then `Atomics.notify`s. Only a thread waiting on the counter (`Atomics.waitAsync`) is woken,
 * once; under load the waiting side is mostly busy reading, so the appends meanwhile cost an
 * atomic add and a notify that finds no one (tens of nanoseconds), not a message each to
 * another thread's event loop. The waiting side compares the counter with what it saw before
 * its last read, so an append between that read and its wait is never missed.
 *
 * The buffer is created by the first store of a process (per connection string) and handed to
 * a worker thread at its start (`threadSignalBuffers`, `adoptThreadSignalBuffers`); a thread
 * that was handed none makes its own and hears the others' appends by their NOTIFY.
 */
export interface SharedThreadSignal {
  /** Names the appends of every thread sharing `buffer` in their NOTIFY payload. */
  id: string;
  buffer: SharedArrayBuffer;
}

const COUNT = 0;

/** Node has it since 16; the ES library this repository compiles against (before ES2024) does not declare it. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      cells: Int32Array,
      index: number,
      value: number,
    ): { async: false; value: 'not-equal' | 'timed-out' } | { async: true; value: Promise<'ok' | 'timed-out'> };
  }
).waitAsync;

const shared = new Map<string, SharedThreadSignal>();

/** The signal of this process's threads on `connectionString`, made on first use. */
export function sharedThreadSignal(connectionString: string): SharedThreadSignal {
  let signal = shared.get(connectionString);
  if (!signal) {
    signal = { id: randomUUID(), buffer: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) };
    shared.set(connectionString, signal);
  }
  return signal;
}

/** What a worker thread is given at its start (in its `workerData`) so its stores share this thread's signal. */
export function threadSignalBuffers(connectionString: string): Record<string, SharedThreadSignal> {
  return { [connectionString]: sharedThreadSignal(connectionString) };
}

/** In a worker thread, before its stores open: the signals its parent handed it. */
export function adoptThreadSignalBuffers(given: unknown): void {
  if (typeof given !== 'object' || given === null) return;
  for (const [connectionString, signal] of Object.entries(given as Record<string, SharedThreadSignal>)) {
    if (typeof signal?.id === 'string' && signal.buffer instanceof SharedArrayBuffer) shared.set(connectionString, signal);
  }
}

/** One store's side of the shared signal. */
export class ThreadSignal {
  readonly id: string;
  private readonly cells: Int32Array;
  /** This store waits on the counter (one `Atomics.waitAsync` at a time, for all its subscriptions). */
  private watching = false;
  private closed = false;

  constructor(
    signal: SharedThreadSignal,
    /** Called when another store's append bumped the counter while this one watched it. */
    private readonly onAppended: () => void,
  ) {
    this.id = signal.id;
    this.cells = new Int32Array(signal.buffer);
  }

  /** After an append's commit: wakes the stores waiting on the counter, in every thread. */
  appended(): void {
    Atomics.add(this.cells, COUNT, 1);
    Atomics.notify(this.cells, COUNT);
  }

  /** The counter now: take it before a read, and hand it to `watch` before waiting. */
  count(): number {
    return Atomics.load(this.cells, COUNT);
  }

  /**
   * Calls `onAppended` once the counter differs from `seen` (at once, if it already does).
   * While a watch is pending a second one adds nothing: the pending one was started with a
   * count no later than `seen`, so it ends on the same appends or earlier.
   */
  watch(seen: number): void {
    if (this.watching || this.closed) return;
    // Compares and waits in one step: an append after `seen` ends it at once.
    const waited = waitAsync(this.cells, COUNT, seen);
    if (!waited.async) {
      this.onAppended();
      return;
    }
    this.watching = true;
    void waited.value.then(() => {
      this.watching = false;
      if (!this.closed) this.onAppended();
    });
  }

  /** A pending watch keeps no process or thread alive; after this it calls nothing. */
  close(): void {
    this.closed = true;
  }
}
