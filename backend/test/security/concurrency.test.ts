import { revisionETag } from '@crm/projections/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient, createTestInstance, signInUser, startTestServer, type ApiResponse, type TestServer } from '../support/server.ts';

/**
 * Races: 200 concurrent updates to one job and to one customer, on different fields and on
 * the same field, with and without If-Match. Each answer is a 2xx or a 409; the stream grows
 * by exactly one event per success, the record's revision says so, and the history shows
 * exactly those changes. 200 concurrent creates finish in bounded time (printed).
 */

const RACERS = Number(process.env.RACE_REQUESTS ?? 200);
let server: TestServer;
let admin: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'race', { username: 'owner', pin: '1234' });
  admin = await signInUser(server, 'race', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

interface Change {
  field: string;
  newValue: unknown;
}

interface RaceKind {
  what: string;
  create(): Promise<ApiResponse>;
  path(id: string): string;
  stream(id: string): string;
  /** Racer i's body: half change fields of their own, half all change one shared field. */
  body(i: number): Record<string, string>;
  /** The value racer i wrote, as the history shows it. */
  written(i: number): { field: string; value: string };
}

const JOB_FIELDS = ['notes', 'tech', 'csr', 'part', 'makeModel'] as const;
const CUSTOMER_FIELDS = ['notes', 'address', 'email'] as const;

const kinds: RaceKind[] = [
  {
    what: 'job',
    create: () => admin.post('/api/user-info', { name: 'Race Job', part: 'Brakes' }),
    path: (id) => `/api/user-info/${id}`,
    stream: (id) => `job-${id}`,
    body: (i) => {
      const { field, value } = kinds[0]!.written(i);
      return { [field]: value };
    },
    written: (i) => ({ field: i % 2 === 0 ? JOB_FIELDS[(i / 2) % JOB_FIELDS.length]! : 'notes', value: `v${i}` }),
  },
  {
    what: 'customer',
    create: () => admin.post('/api/customers', { name: 'Race Customer' }),
    path: (id) => `/api/customers/${id}`,
    stream: (id) => `customer-${id}`,
    body: (i) => {
      const { field, value } = kinds[1]!.written(i);
      return { [field]: value };
    },
    written: (i) => {
      const field = i % 2 === 0 ? CUSTOMER_FIELDS[(i / 2) % CUSTOMER_FIELDS.length]! : 'notes';
      return { field, value: field === 'email' ? `r${i}@race.example` : `v${i}` };
    },
  },
];

describe.each(kinds)('$what: concurrent updates', (kind) => {
  test.each([
    ['without If-Match', false],
    ['with If-Match', true],
  ])(
    `${RACERS} racing updates %s: each a 2xx or a 409, one event and one history entry per success`,
    async (_label, withIfMatch) => {
      const created = await kind.create();
      expect(created.status, created.text).toBe(201);
      const id = created.body.id as string;
      const { store } = server.runtime.deps;
      const eventsBefore = (await store.readStream(kind.stream(id))).length;
      const etag = created.headers.get('etag')!;
      const revisionBefore = created.body.revision as number;

      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: RACERS }, (_, i) => admin.put(kind.path(id), kind.body(i), withIfMatch ? { 'if-match': etag } : {})),
      );
      const seconds = (performance.now() - started) / 1000;
      const statuses = answers.map((a) => a.status);
      for (const [i, answer] of answers.entries()) {
        expect([200, 409], `racer ${i}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
      }
      const winners = [...answers.keys()].filter((i) => answers[i]!.status === 200);
      // Every racer wrote a value of its own, so every success is a change.
      const eventsAfter = (await store.readStream(kind.stream(id))).length;
      expect(eventsAfter - eventsBefore).toBe(winners.length);
      if (withIfMatch) expect(winners.length).toBe(1);
      else expect(winners.length).toBeGreaterThan(0);

      const now = await admin.get(kind.path(id));
      expect(now.body.revision).toBe(revisionBefore + winners.length);
      expect(now.headers.get('etag')).toBe(revisionETag(revisionBefore + winners.length));

      const history = (await admin.get(`${kind.path(id)}/history`)).body as Array<{ action: string; changes: Change[] }>;
      const updates = history.filter((entry) => entry.action === 'updated');
      expect(updates).toHaveLength(winners.length);
      const shown = updates.flatMap((entry) => entry.changes.map((c) => `${c.field}=${String(c.newValue)}`)).sort();
      const expected = winners
        .map((i) => kind.written(i))
        .map(({ field, value }) => `${field}=${value}`)
        .sort();
      expect(shown).toEqual(expected);
      console.log(
        `${kind.what} race ${withIfMatch ? 'with' : 'without'} If-Match: ${RACERS} PUTs in ${seconds.toFixed(1)} s, ` +
          `${winners.length} × 200, ${statuses.filter((s) => s === 409).length} × 409; stream +${eventsAfter - eventsBefore}`,
      );
    },
    180_000,
  );
});

describe('bursts of creates', () => {
  test.each([
    ['jobs', () => admin.post('/api/user-info', { name: 'Burst Job', part: 'Tires' })],
    ['customers', () => admin.post('/api/customers', { name: 'Burst Customer' })],
  ] as const)(
    `${RACERS} concurrent %s creates all succeed in bounded time`,
    async (what, create) => {
      const started = performance.now();
      const answers = await Promise.all(Array.from({ length: RACERS }, () => create()));
      const seconds = (performance.now() - started) / 1000;
      const failed = answers.filter((a) => a.status !== 201);
      expect(failed.map((a) => `${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(RACERS);
      if (what === 'jobs') expect(new Set(answers.map((a) => a.body.jobNumber)).size).toBe(RACERS);
      console.log(`${RACERS} concurrent ${what} creates: ${seconds.toFixed(1)} s`);
      // Bounded: generous for a busy 2-core machine; it was 74–114 s before the fix.
      expect(seconds).toBeLessThan(60);
    },
    180_000,
  );
});
