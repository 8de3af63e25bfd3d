import { createWriteStream, type WriteStream } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';

/**
 * What one transaction of a projector's loop took, for finding where a slow batch's time
 * went (ProjectorOptions.trace). Times are this thread's performance.now() in ms; `at` is
 * the wall clock (epoch ms) when the transaction had committed, comparable with PostgreSQL's
 * commit timestamps of the events it applied.
 */
export interface BatchTraceEntry {
  checkpoint: string;
  /** Events handed to the transaction. */
  events: number;
  /** The log's transaction ids of its first and last event. */
  firstTx: string;
  lastTx: string;
  /** Epoch ms at which the first of the taken events reached the projector's buffer. */
  arrivedAt: number;
  /** Epoch ms at which the transaction started. */
  startedAt: number;
  /** Epoch ms at which it had committed. */
  at: number;
  /** Garbage collection pauses of this thread between arrival and commit, ms. */
  gcMs: number;
}

export interface BatchTrace {
  /** Epoch ms now, to the microsecond. */
  now(): number;
  /** Garbage collection time of this thread since `from` (epoch ms). */
  gcSince(from: number): number;
  record(entry: BatchTraceEntry): void;
  close(): Promise<void>;
}

/** How many garbage collection pauses the trace keeps (a few seconds' worth under load). */
const GC_KEPT = 512;

/**
 * A trace written as JSON lines to `file`, one per transaction, with the thread's garbage
 * collection pauses. Off unless asked for: it costs a line per batch and a GC observer.
 */
export function fileBatchTrace(file: string): BatchTrace {
  const out: WriteStream = createWriteStream(file, { flags: 'a' });
  const origin = performance.timeOrigin;
  const gcs: Array<{ start: number; end: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcs.push({ start: origin + entry.startTime, end: origin + entry.startTime + entry.duration });
      if (gcs.length > GC_KEPT) gcs.shift();
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    now: () => origin + performance.now(),
    gcSince(from) {
      let ms = 0;
      for (const gc of gcs) if (gc.end > from) ms += gc.end - Math.max(gc.start, from);
      return ms;
    },
    record(entry) {
      out.write(`${JSON.stringify(entry)}\n`);
    },
    async close() {
      observer.disconnect();
      await new Promise<void>((resolve) => out.end(resolve));
    },
  };
}
