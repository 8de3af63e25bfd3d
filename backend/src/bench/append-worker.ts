import { randomUUID } from 'node:crypto';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import type { EventMetadata } from '@crm/projections/eventstore/port';

/**
 * One contestant of the append benchmark, in a process of its own (emmett sets pg's type
 * parsers process-wide, and neither store should share an event loop with the other):
 * `ours` (createPostgresEventStore) or `emmett` (@event-driven-io/emmett-postgresql),
 * each with its default pool (pg.Pool, 10 connections). The same event for both, one per
 * append; new streams (expected: no stream), 100 hot streams, or 4 contended streams that
 * every appender writes to at once (both without a revision check).
 */

export type AppendStore = 'ours' | 'emmett';
export type AppendMode = 'new' | 'hot' | 'contended';

export interface AppendScenario {
  mode: AppendMode;
  appenders: number;
  durationMs: number;
}

export type AppendWorkerMessage = { id: number; store: AppendStore; url: string } | { id: number; scenario: AppendScenario };
export type AppendWorkerReply = { id: number; result?: AppendScenarioResult; error?: string };

export interface AppendScenarioResult extends AppendScenario {
  events: number;
  eventsPerSecond: number;
  errors: number;
  firstError?: string;
}

export const HOT_STREAMS = 100;
/** Few enough that several appenders write to one stream at the same moment (8 appenders: two per stream). */
export const CONTENDED_STREAMS = 4;

type Append = (streamId: string, mode: AppendMode) => Promise<void>;

const metadata = (): EventMetadata => ({
  instanceId: '8f9c1b5e-5d0a-4a57-9d69-7f0c2c1d9a11',
  actor: { kind: 'user', id: '2b7f4c8e-0a3d-4e51-b0c2-9d8e7f6a5b4c', displayName: 'Chris CSR' },
  correlationId: randomUUID(),
  causationId: null,
  occurredAt: new Date().toISOString(),
  schemaVersion: 1,
});

/** A job's note changed: a typical event, about 500 bytes of JSON. */
const payload = () => ({
  jobId: randomUUID(),
  jobNumber: '10452',
  name: 'Patricia Garcia',
  changes: [
    {
      field: 'notes',
      oldValue: 'Customer will drop the car off before 9.',
      newValue: 'Customer dropped the car off at 8:40; keys at the desk.',
    },
    { field: 'quote', oldValue: 42000, newValue: 45950 },
  ],
});

function oursAppend(url: string): { append: Append; close: () => Promise<void> } {
  const store = createPostgresEventStore({ connectionString: url });
  return {
    append: async (streamId, mode) => {
      await store.append(streamId, [{ id: randomUUID(), type: 'JobUpdated', data: payload(), metadata: metadata() }], {
        expectedRevision: mode === 'new' ? 'no_stream' : 'any',
      });
    },
    close: () => store.close(),
  };
}

function emmettAppend(url: string): { append: Append; close: () => Promise<void> } {
  const store = getPostgreSQLEventStore(url);
  return {
    append: async (streamId, mode) => {
      await store.appendToStream(
        streamId,
        [{ type: 'JobUpdated', data: payload(), metadata: metadata() as unknown as Record<string, unknown> }],
        mode === 'new' ? { expectedStreamVersion: 'STREAM_DOES_NOT_EXIST' } : {},
      );
    },
    close: () => store.close(),
  };
}

async function runScenario(append: Append, store: AppendStore, scenario: AppendScenario): Promise<AppendScenarioResult> {
  const prefix = `bench${store}${scenario.mode}${scenario.appenders}`;
  let events = 0;
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const started = performance.now();
  const deadline = started + scenario.durationMs;
  await Promise.all(
    Array.from({ length: scenario.appenders }, async () => {
      while (performance.now() < deadline) {
        const n = next++;
        const streamId =
          scenario.mode === 'new'
            ? `${prefix}-${randomUUID()}`
            : scenario.mode === 'hot'
              ? `${prefix}hot-${n % HOT_STREAMS}`
              : `${prefix}contended-${n % CONTENDED_STREAMS}`;
        try {
          await append(streamId, scenario.mode);
          events++;
        } catch (error) {
          errors++;
          firstError ??= error instanceof Error ? error.message : String(error);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { ...scenario, events, eventsPerSecond: events / seconds, errors, firstError };
}

/**
 * Long-lived: the parent alternates the contestants scenario by scenario (round by round),
 * so a noisy neighbour on the machine hits both alike. First message: the store and URL
 * (answered once warmed up); then one scenario per message.
 */
let contestant: { append: Append; close: () => Promise<void> } | null = null;
let store: AppendStore = 'ours';

process.on('message', (message: AppendWorkerMessage) => {
  void (async () => {
    try {
      if ('store' in message) {
        store = message.store;
        contestant = store === 'ours' ? oursAppend(message.url) : emmettAppend(message.url);
        // Warm up: connections, emmett's schema (created on first use), plans.
        for (let i = 0; i < 50; i++) await contestant.append(`bench${store}warm-${randomUUID()}`, 'new');
        process.send!({ id: message.id });
      } else {
        process.send!({ id: message.id, result: await runScenario(contestant!.append, store, message.scenario) });
      }
    } catch (error) {
      process.send!({ id: message.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  })();
});
process.on('disconnect', () => {
  void (contestant?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
