import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { threadSignalBuffers } from '@crm/projections/eventstore/thread-signal';
import type { Logger } from '../logger.ts';

/**
 * The projector, the reactors and the message sender in a worker thread of the API process
 * (backend/dist/projector-main.js), so their batches never take the API's event loop. A
 * thread and not a child process: it shares the process's Node runtime and native code
 * instead of holding a second copy (an empty Node process is about 42 MB resident, an empty
 * thread about 14 MB, and the child held about 140 MB under load). The thread joins the API's database
 * (the embedded one included) and stands for election like any `npm run projector`. It is
 * handed the API's append counter (a SharedArrayBuffer), so the API's appends wake its
 * subscriptions without a message or a NOTIFY per append. The API
 * learns its checkpoints through the database's NOTIFY, as an API process without a
 * projector always has. A thread that fails is started again after a pause; when the API
 * stops, the thread stops first; a kill -9 of the API ends both at once.
 */
export interface ProjectorThread {
  /** Settles once the first thread has taken its place (elected, or standing by), or has exited. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const RESTART_DELAY_MS = 2_000;
const STOP_GRACE_MS = 12_000;

/**
 * The thread's young generation capped at 12 MB (V8's default grows it to 48 MB: three
 * semi-spaces of 16 MB): its work is batches of a few hundred events, whose garbage a small
 * nursery collects as well, so the larger one only made resident memory grow under load.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 12 };

/**
 * `publicUrl` is where customers reach the API: the thread sends the messages whose links
 * (unsubscribe, estimate approval) point there.
 */
export function startProjectorThread(databaseUrl: string, logger: Logger, publicUrl: string): ProjectorThread {
  const entry = path.join(import.meta.dirname, 'projector-main.js');
  let worker: Worker | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const startWorker = () => {
    const started = new Worker(entry, {
      env: threadEnv(databaseUrl, publicUrl),
      workerData: { threadSignals: threadSignalBuffers(databaseUrl) },
      resourceLimits: THREAD_LIMITS,
    });
    worker = started;
    started.once('message', () => markReady());
    started.on('error', (error) => logger.error({ err: error }, 'the projector thread failed'));
    started.on('exit', (code) => {
      if (worker === started) worker = null;
      markReady();
      if (stopping) return;
      logger.error({ code }, 'the projector thread exited; starting it again');
      restartTimer = setTimeout(startWorker, RESTART_DELAY_MS);
    });
  };
  startWorker();

  return {
    ready,
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = worker;
      if (!running) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.postMessage('stop');
      const force = setTimeout(() => void running.terminate(), STOP_GRACE_MS);
      await exited;
      clearTimeout(force);
    },
  };
}

/** The API's environment, with the database it opened (the embedded one's address) and its public address. */
function threadEnv(databaseUrl: string, publicUrl: string): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl };
}
