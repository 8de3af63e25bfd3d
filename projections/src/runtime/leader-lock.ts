import pg from 'pg';
import { pause } from '../shared/pause.ts';
import { TransientError } from './transient.ts';

/** How often a standby tries the leader lock (the most a takeover waits for it). */
export const DEFAULT_STANDBY_RETRY_MS = 1000;
/** Server-side keepalives of the lock connection: a vanished holder is noticed after idle + count × 1 s. */
const LOCK_KEEPALIVE_IDLE_S = 2;
const LOCK_KEEPALIVE_COUNT = 2;
/** The leader's check of its own lock connection. */
const HEARTBEAT_INTERVAL_MS = 1000;
// Generous: a busy database answering slowly must not make the leader step down; a dead
// connection is noticed by its socket at once, a cut one (no answer at all) within this.
const HEARTBEAT_TIMEOUT_MS = 10_000;
/** How long the lock connection may take to open before the attempt counts as a (transient) failure. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface LeaderLockOptions {
  connectionString: string;
  /** One holder per key. */
  key: string;
  /** Names it in logs and in the connection's application_name ('projector', 'reactor'). */
  kind: string;
  log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  /** How often a standby tries again. */
  standbyRetryMs: number;
  /** Aborted when its owner stops: a standby stops waiting, the heartbeat stops. */
  signal: AbortSignal;
  /** The lock is lost (its connection failed, ended or stopped answering): stop acting as the leader. */
  onLost: (error: Error) => void;
}

/**
 * The election of the one active projector (or reactor) of a read-model set: a PostgreSQL
 * advisory lock held on a connection of its own, checked by a heartbeat while held.
 */
export class LeaderLock {
  private client: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | undefined;
  private held = false;

  constructor(private readonly options: LeaderLockOptions) {}

  get isHeld(): boolean {
    return this.held;
  }

  private get stopping(): boolean {
    return this.options.signal.aborted;
  }

  /**
   * Takes the lock on a connection of its own; returns once it is held or its owner stops.
   * The lock lives as long as that connection: when the holder dies (kill -9 included) its
   * socket closes and PostgreSQL drops the lock at once; when its host vanishes without
   * closing the socket, the server-side keepalives set here end the session within a few
   * seconds. Standbys try again every `standbyRetryMs` (1 s), so one takes over well within 5 s.
   */
  async acquire(): Promise<void> {
    const { kind, log } = this.options;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      keepAlive: true,
      keepAliveInitialDelayMillis: LOCK_KEEPALIVE_IDLE_S * 1000,
      // A server that takes the socket but never answers (one still starting) must not hold the election forever.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      application_name: `crm-${kind}`,
    });
    client.on('error', (error) => {
      log.error({ err: error }, `${kind} lock connection failed`);
      this.lost(client, error);
    });
    client.on('end', () => this.lost(client, new TransientError('the leader-lock connection ended')));
    this.client = client;
    await client.connect();
    // Settable by any role; a pooler that refuses them only costs the fast detection.
    await client
      .query(
        `SET tcp_keepalives_idle = ${LOCK_KEEPALIVE_IDLE_S}; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = ${LOCK_KEEPALIVE_COUNT}`,
      )
      .catch(() => undefined);
    let announced = false;
    while (!this.stopping) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [this.options.key]);
      if (rows[0]?.locked) {
        this.held = true;
        this.startHeartbeat(client);
        return;
      }
      if (!announced) log.info({}, `another ${kind} is active; waiting on standby`);
      announced = true;
      await pause(this.options.standbyRetryMs, this.options.signal);
    }
  }

  /**
   * The leader asks its lock connection a trivial question every second: a connection that
   * no longer answers (a network cut the socket does not report) means the lock may be gone,
   * so it stops following before a standby's batches meet its own. (The checkpoint row lock
   * in applyBatch keeps even an overlap from applying an event twice.)
   */
  private startHeartbeat(client: pg.Client): void {
    const beat = async () => {
      if (client !== this.client || this.stopping) return;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new TransientError(`the leader-lock connection did not answer within ${HEARTBEAT_TIMEOUT_MS} ms`)),
          HEARTBEAT_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([client.query('SELECT 1'), timeout]);
        if (client === this.client && !this.stopping) this.heartbeat = setTimeout(() => void beat(), HEARTBEAT_INTERVAL_MS);
      } catch (error) {
        if (client !== this.client || this.stopping) return;
        this.options.log.error({ err: error }, `${this.options.kind} lost its lock connection; stepping down`);
        this.lost(client, error instanceof Error ? error : new Error(String(error)));
        // A connection that hangs is ended too, so the server lets the lock go.
        void client.end().catch(() => undefined);
      } finally {
        clearTimeout(timer);
      }
    };
    this.heartbeat = setTimeout(() => void beat(), HEARTBEAT_INTERVAL_MS);
  }

  /** The lock goes with its connection: its owner stops following, so it never writes as a non-leader for long. */
  private lost(client: pg.Client, error: Error): void {
    if (client !== this.client) return;
    this.held = false;
    this.options.onLost(error);
  }

  /** Lets the lock go (ends its connection); nothing to do when not held. */
  async release(): Promise<void> {
    clearTimeout(this.heartbeat);
    this.heartbeat = undefined;
    const client = this.client;
    this.client = null;
    this.held = false;
    await client?.end().catch(() => undefined);
  }
}
