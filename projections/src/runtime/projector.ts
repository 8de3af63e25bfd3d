import type { Knex } from 'knex';
import pg from 'pg';
import { parseStoredEvent } from '../domain/events/index.ts';
import { comparePositions, START, type EventStore, type GlobalPosition, type RecordedEvent } from '../eventstore/port.ts';
import { createProjectionContext, type Projection } from '../readmodels/projection.ts';
import { ensureCheckpoint, MAIN_CHECKPOINT, readCheckpoint, writeCheckpoint } from './checkpoints.ts';

export interface ProjectorLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const silentLogger: ProjectorLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * Applies events to a set of read models inside one PostgreSQL transaction per batch,
 * together with the checkpoint, so each event takes effect exactly once even after a crash.
 */
export async function applyBatch(
  knex: Knex,
  options: { schema: string; checkpointName: string; projections: Projection[] },
  events: RecordedEvent[],
): Promise<GlobalPosition | null> {
  return await knex.transaction(async (trx) => {
    // Taking the checkpoint row first serialises us with any other writer of this set
    // (a rebuild's swap, a second projector that lost its lock).
    const checkpoint = (await readCheckpoint(trx, options.checkpointName, true)) ?? START;
    const ctx = createProjectionContext(trx, options.schema);
    let last: GlobalPosition | null = null;
    for (const event of events) {
      if (comparePositions(event.position, checkpoint) <= 0) continue;
      const parsed = parseStoredEvent(event);
      if (parsed) {
        for (const projection of options.projections) await projection.apply(parsed, ctx);
      }
      last = event.position;
    }
    if (last) await writeCheckpoint(trx, options.checkpointName, last);
    return last;
  });
}

export interface ProjectorOptions {
  store: EventStore;
  knex: Knex;
  /** Used for the leader-election connection. */
  connectionString: string;
  projections: Projection[];
  schema: string;
  checkpointName?: string;
  batchSize?: number;
  logger?: ProjectorLogger;
  /** How often a standby projector retries the leader lock. */
  standbyRetryMs?: number;
}

/**
 * Catch-up subscription from the stored checkpoint. Only one projector per read-model set
 * is active: a PostgreSQL advisory lock elects it, the others wait on standby.
 */
export class Projector {
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private lockClient: pg.Client | null = null;
  private lastApplied: GlobalPosition = START;
  private leader = false;
  eventsApplied = 0;

  constructor(private readonly options: ProjectorOptions) {}

  get checkpointName(): string {
    return this.options.checkpointName ?? MAIN_CHECKPOINT;
  }

  get isLeader(): boolean {
    return this.leader;
  }

  get position(): GlobalPosition {
    return this.lastApplied;
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) => {
      if (!this.abort.signal.aborted) this.log.error({ err: error }, 'projector stopped with an error');
    });
  }

  private get log(): ProjectorLogger {
    return this.options.logger ?? silentLogger;
  }

  private async run(): Promise<void> {
    await this.acquireLeadership();
    if (this.abort.signal.aborted) return;
    const { knex, store, schema, projections } = this.options;
    await ensureCheckpoint(knex, this.checkpointName);
    this.lastApplied = (await readCheckpoint(knex, this.checkpointName)) ?? START;
    this.log.info({ checkpoint: `${this.lastApplied.commit}/${this.lastApplied.prepare}` }, 'projector started');
    const batchSize = this.options.batchSize ?? 500;
    const buffer: RecordedEvent[] = [];
    const waiting: { wake: (() => void) | null } = { wake: null };
    let subscriptionDone = false;
    const subscription = (async () => {
      try {
        for await (const event of store.subscribeAll({ from: this.lastApplied, signal: this.abort.signal })) {
          buffer.push(event);
          waiting.wake?.();
          // Back-pressure: let the writer drain before reading further ahead.
          while (buffer.length >= batchSize * 4 && !this.abort.signal.aborted) await sleep(5);
        }
      } finally {
        subscriptionDone = true;
        waiting.wake?.();
      }
    })();
    // One listener for the whole run: stopping wakes an idle wait.
    this.abort.signal.addEventListener('abort', () => waiting.wake?.(), { once: true });
    while (!this.abort.signal.aborted) {
      if (buffer.length === 0) {
        if (subscriptionDone) break;
        await new Promise<void>((resolve) => {
          waiting.wake = resolve;
        });
        waiting.wake = null;
        continue;
      }
      const batch = buffer.splice(0, batchSize);
      const last = await applyBatch(knex, { schema, checkpointName: this.checkpointName, projections }, batch);
      if (last) this.lastApplied = last;
      this.eventsApplied += batch.length;
    }
    await subscription.catch((error: unknown) => {
      if (!this.abort.signal.aborted) throw error;
    });
  }

  private async acquireLeadership(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString });
    client.on('error', (error) => this.log.error({ err: error }, 'projector lock connection failed'));
    await client.connect();
    this.lockClient = client;
    const key = `projector:${this.options.schema}:${this.checkpointName}`;
    let announced = false;
    while (!this.abort.signal.aborted) {
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [key]);
      if (rows[0]?.locked) {
        this.leader = true;
        return;
      }
      if (!announced) this.log.info({}, 'another projector is active; waiting on standby');
      announced = true;
      await sleep(this.options.standbyRetryMs ?? 2000, this.abort.signal);
    }
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.running;
    this.leader = false;
    await this.lockClient?.end().catch(() => undefined);
    this.lockClient = null;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
