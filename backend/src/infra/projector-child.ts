import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Logger } from '../logger.ts';

/**
 * The projector, the reactors and the message sender in a child process of the API
 * (backend/dist/projector-main.js), so their batches never take the API's event loop. The
 * child joins the API's database (the embedded one included) and stands for election like
 * any `npm run projector`; the API learns its checkpoints through the database's NOTIFY, as
 * an API process without a projector always has. A child that dies is started again after a
 * pause; when the API stops, the child stops first (and a child whose parent vanished stops
 * itself: see projector-main).
 */
export interface ProjectorChild {
  /** Settles once the first child has taken its place (elected, or standing by), or has exited. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

const RESTART_DELAY_MS = 2_000;

/**
 * The child's young generation capped at 4 MB per semi-space (V8's default grows it to
 * 16 MB on 64-bit): its work is batches of a few hundred events, whose garbage a small
 * nursery collects as well, so the larger one only made its resident memory grow under
 * load (the whole server is judged on what the API and this child hold together).
 */
const CHILD_HEAP_FLAGS = ['--max-semi-space-size=4'];

/**
 * `publicUrl` is where customers reach the API: the child sends the messages whose links
 * (unsubscribe, estimate approval) point there, and its own PORT is not the API's.
 */
export function startProjectorChild(databaseUrl: string, logger: Logger, publicUrl: string): ProjectorChild {
  const entry = path.join(import.meta.dirname, 'projector-main.js');
  let child: ChildProcess | null = null;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const spawnChild = () => {
    const started = fork(entry, [], {
      execArgv: ['--enable-source-maps', ...CHILD_HEAP_FLAGS],
      env: childEnv(databaseUrl, publicUrl),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = started;
    started.once('message', () => markReady());
    started.on('exit', (code, signal) => {
      if (child === started) child = null;
      markReady();
      // Stopped on purpose: by us, or by a Ctrl+C that reached the whole process group.
      if (stopping || code === 0) return;
      logger.error({ code, signal }, 'the projector process exited; starting it again');
      restartTimer = setTimeout(spawnChild, RESTART_DELAY_MS);
    });
  };
  spawnChild();

  return {
    ready,
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      running.kill('SIGTERM');
      const force = setTimeout(() => running.kill('SIGKILL'), 12_000);
      await exited;
      clearTimeout(force);
    },
  };
}

function childEnv(databaseUrl: string, publicUrl: string): NodeJS.ProcessEnv {
  // Its health endpoints on a free loopback port: PORT (and METRICS_PORT) are the API's. The
  // links it puts in messages are the API's address, not that port's.
  const { METRICS_PORT: _metricsPort, ...rest } = process.env;
  return { ...rest, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: publicUrl };
}
