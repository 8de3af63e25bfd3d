import pg from 'pg';

/** How long an attempt to open the connection may take before it counts as failed. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface PgListenerOptions {
  connectionString: string;
  channels: readonly string[];
  onNotification: (message: pg.Notification) => void;
  /** Listening (again): notifications sent while nobody listened are lost, so look for what was missed. */
  onUp?: () => void;
  /** The connection dropped: nothing is heard until `onUp`. */
  onDown?: () => void;
  /** How long after a drop (or a failed attempt) the connection is opened again. */
  retryMs: number;
}

/**
 * A PostgreSQL LISTEN connection that opens itself again. NOTIFY reaches only a connection
 * that is up when it is sent, so a dropped one (a server restart, a network cut) is opened
 * again after `retryMs`, and again after each failed attempt, until `close()`. Whoever relies
 * on it polls while it is down: `listening` says whether it is up.
 */
export class PgListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: PgListenerOptions) {}

  get listening(): boolean {
    return this.client !== null;
  }

  /** The first connection; rejects when it cannot be opened (nothing is retried then). */
  async start(): Promise<void> {
    await this.connect();
  }

  /** The first connection, or, when it cannot be opened now, the retries (the caller polls meanwhile). */
  async startOrRetry(): Promise<void> {
    try {
      await this.connect();
    } catch {
      this.scheduleRetry();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      // A connection cut without a word (a peer gone) is noticed, not waited on forever.
      keepAlive: true,
      keepAliveInitialDelayMillis: 5000,
      // A server that takes the socket but never answers (one still starting) counts as a failed attempt.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    const dropped = () => {
      // Only the connection in use counts; a failed attempt is handled where it fails.
      if (this.client !== client) return;
      this.client = null;
      this.options.onDown?.();
      this.scheduleRetry();
    };
    client.on('error', dropped);
    client.on('end', dropped);
    client.on('notification', (message) => this.options.onNotification(message));
    try {
      await client.connect();
      await client.query(this.options.channels.map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.options.onUp?.();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().catch(() => this.scheduleRetry());
    }, this.options.retryMs);
  }
}
