import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import type { EventStore, RecordedEvent } from '@crm/projections/eventstore/port';
import { applyBatch, Projector } from '@crm/projections/runtime/projector';
import { readReaction } from '@crm/projections/runtime/reactions';
import { customerCascadeReactor } from '../../src/pipeline/customer-cascade.ts';
import { jobNumberStream, jobStream } from '../../src/pipeline/job-decider.ts';
import { CUSTOMER_CASCADE } from '../../src/shared/reactions.ts';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestInstance, type TestServer } from '../support/server.ts';
import { testEventMetadata } from '@crm/projections/testing/events';
import { recordStatements } from '@crm/projections/testing/statement-recorder';

let server: TestServer;
let shop: TestInstance;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'cascadeshop');
  client = await signInUser(server, shop.subdomain, 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

/** The cascade reactor as a process of its own would run it, on the given event store. */
function reactorProcess(store: EventStore): Projector {
  return new Projector({
    store,
    knex: server.runtime.deps.knex,
    connectionString: server.runtime.deps.config.DATABASE_URL!,
    projections: [customerCascadeReactor({ store, now: () => new Date() })],
    schema: READ_MODEL_SCHEMA,
    checkpointName: CUSTOMER_CASCADE,
    kind: 'reactor',
    standbyRetryMs: 50,
    retry: { initialDelayMs: 10, maxDelayMs: 50 },
  });
}

async function createCustomer(name: string): Promise<{ id: string }> {
  const res = await client.post('/api/customers', { name });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function createJob(customerId: string, part: string): Promise<{ id: string; jobNumber: string }> {
  const res = await client.post('/api/user-info', { name: 'Someone', part, customerId });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function deletionOf(customerId: string): Promise<RecordedEvent> {
  const events = await server.runtime.deps.store.readStream(`customer-${customerId}`);
  const deleted = events.find((e) => e.type === 'CustomerDeleted');
  expect(deleted).toBeDefined();
  return deleted!;
}

async function eventsOf(streamId: string, type: string): Promise<RecordedEvent[]> {
  return (await server.runtime.deps.store.readStream(streamId)).filter((e) => e.type === type);
}

describe('the customer-deletion cascade reactor', () => {
  test('stopped between the deletion and its jobs, it resumes from its checkpoint: every job is deleted exactly once', async () => {
    const doomedCustomer = await createCustomer('Crash Test');
    const spared = await createCustomer('Spared');
    const jobs = [];
    for (let i = 1; i <= 3; i++) jobs.push(await createJob(doomedCustomer.id, `Part ${i}`));
    const otherJob = await createJob(spared.id, 'Oil');

    // The server's own reactor goes down; a "process" of our own stands in for it.
    await Promise.all(server.runtime.reactors.map((reactor) => reactor.stop()));
    const store = server.runtime.deps.store;
    let jobDeletes = 0;
    let atSecondJob!: () => void;
    const reachedSecondJob = new Promise<void>((resolve) => (atSecondJob = resolve));
    let kill!: (error: Error) => void;
    const killed = new Promise<never>((_, reject) => (kill = reject));
    const doomedStore: EventStore = {
      ...store,
      async append(streamId, events, options) {
        // The second job's deletion never gets written: the process dies while writing it.
        if (events.some((e) => e.type === 'JobDeleted') && ++jobDeletes >= 2) {
          atSecondJob();
          return await killed;
        }
        return await store.append(streamId, events, options);
      },
      // A job's deletion and the release of its number are one append.
      async appendMany(appends) {
        if (appends.some((a) => a.events.some((e) => e.type === 'JobDeleted')) && ++jobDeletes >= 2) {
          atSecondJob();
          return await killed;
        }
        return await store.appendMany(appends);
      },
    };
    const doomed = reactorProcess(doomedStore);
    doomed.start();

    const answer = client.delete(`/api/customers/${doomedCustomer.id}`);
    await reachedSecondJob;
    const stopping = doomed.stop();
    kill(new Error('process killed'));
    await stopping;

    // The customer is deleted, one job of three, and the reactor has not moved past the deletion.
    const deletion = await deletionOf(doomedCustomer.id);
    const deletedSoFar = await Promise.all(jobs.map(async (job) => (await eventsOf(jobStream(job.id), 'JobDeleted')).length));
    expect(deletedSoFar.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await readReaction(server.runtime.deps.knex, CUSTOMER_CASCADE, deletion.id)).toBeNull();

    const restarted = reactorProcess(store);
    restarted.start();
    try {
      const res = await answer;
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ deleted: true, jobsDeleted: 3 });
      for (const job of jobs) {
        const deletions = await eventsOf(jobStream(job.id), 'JobDeleted');
        expect(deletions).toHaveLength(1);
        expect(deletions[0]!.metadata.causationId).toBe(deletion.id);
        expect(deletions[0]!.data).toMatchObject({ reason: 'customer-deleted' });
        // Its number is free again, once.
        expect(await eventsOf(jobNumberStream(shop.id, job.jobNumber), 'JobNumberReleased')).toHaveLength(1);
        // Read-your-writes: the answer came once the projector had the deletions.
        expect((await client.get(`/api/user-info/${job.id}`)).status).toBe(404);
      }
      expect((await client.get(`/api/user-info/${otherJob.id}`)).status).toBe(200);
      expect(await eventsOf(jobStream(otherJob.id), 'JobDeleted')).toHaveLength(0);
      expect(await readReaction(server.runtime.deps.knex, CUSTOMER_CASCADE, deletion.id)).toMatchObject({ affected: 3 });
    } finally {
      await restarted.stop();
    }
  });

  test('a job linked to a customer after its deletion (a save racing it) is deleted when the link arrives', async () => {
    const reactor = reactorProcess(server.runtime.deps.store);
    reactor.start();
    try {
      const customer = await createCustomer('Gone Soon');
      const res = await client.delete(`/api/customers/${customer.id}`);
      expect(res.body).toEqual({ deleted: true, jobsDeleted: 0 });
      const deletion = await deletionOf(customer.id);

      // As if a job save had checked the customer just before the deletion and written just after.
      const jobId = randomUUID();
      await server.runtime.deps.store.append(
        jobStream(jobId),
        [
          {
            id: randomUUID(),
            type: 'JobCreated',
            data: {
              jobId,
              instanceId: shop.id,
              jobNumber: 'LATE-1',
              name: 'Gone Soon',
              phone: '',
              part: 'Late part',
              makeModel: '',
              quote: null,
              stage: 'Quote',
              vin: '',
              csr: '',
              jobType: 'In Shop',
              appointment: null,
              duration: null,
              tech: '',
              notes: '',
              customerId: customer.id,
            },
            metadata: testEventMetadata(shop.id),
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      await expect
        .poll(async () => (await eventsOf(jobStream(jobId), 'JobDeleted')).map((e) => e.metadata.causationId))
        .toEqual([deletion.id]);
      // The count is written with the reactor's checkpoint, in the transaction that commits after the deletion it appended.
      await expect.poll(async () => (await readReaction(server.runtime.deps.knex, CUSTOMER_CASCADE, deletion.id))?.affected).toBe(1);
    } finally {
      await reactor.stop();
    }
  });

  test("a batch's jobs are linked in one statement, sent with the checkpoint's lock; those whose customer is deleted are deleted, once each", async () => {
    const live = await createCustomer('Staying');
    const gone = await createCustomer('Leaving');
    const deleting = reactorProcess(server.runtime.deps.store);
    deleting.start();
    let deletion: RecordedEvent;
    try {
      expect((await client.delete(`/api/customers/${gone.id}`)).body).toEqual({ deleted: true, jobsDeleted: 0 });
      deletion = await deletionOf(gone.id);
    } finally {
      await deleting.stop();
    }
    // Saves that raced the deletion and saves of the live customer, reaching the reactor in one batch.
    const customers = [live.id, gone.id, live.id, gone.id];
    const jobIds = customers.map(() => randomUUID());
    const events: RecordedEvent[] = [];
    for (const [i, jobId] of jobIds.entries()) {
      await appendJobCreated(jobId, `LINK-${i}`, customers[i]!);
      events.push(...(await server.runtime.deps.store.readStream(jobStream(jobId))));
    }
    const { knex, store } = server.runtime.deps;
    const checkpointName = `reactor:cascade-batch-${randomUUID()}`;
    await knex('projection_checkpoints').insert({ name: checkpointName, position_commit: '-1', position_prepare: '-1' });
    const options = {
      schema: READ_MODEL_SCHEMA,
      checkpointName,
      budgetMs: 10_000,
      projections: [customerCascadeReactor({ store, now: () => new Date() })],
    };
    const recorder = recordStatements();
    try {
      const { result, statements } = await recorder.during(() => applyBatch(knex, options, events));
      expect(result).toEqual(events[3]!.position);
      const links = statements.filter((text) => text.includes('INSERT INTO cascade_job_customers'));
      expect(links).toHaveLength(1);
      expect(links[0]).toMatch(
        /^BEGIN;\nSET LOCAL synchronous_commit TO off;\nSELECT public.lock_checkpoint_before\([^)]+\);\n\s*WITH input AS/,
      );
    } finally {
      recorder.stop();
    }
    const deletedOnce = async () => {
      for (const [i, jobId] of jobIds.entries()) {
        const deletions = (await eventsOf(jobStream(jobId), 'JobDeleted')).map((e) => e.metadata.causationId);
        expect(deletions).toEqual(customers[i] === gone.id ? [deletion.id] : []);
      }
    };
    await deletedOnce();
    expect(await knex('cascade_job_customers').whereIn('job_id', jobIds).orderBy('job_id').pluck('job_id')).toEqual(
      [jobIds[0], jobIds[2]].sort(),
    );
    expect(await readReaction(knex, CUSTOMER_CASCADE, deletion.id)).toMatchObject({ affected: 2 });
    // The batch again, as a writer that lost the race: its lock fails the link, nothing is deleted twice.
    expect(await applyBatch(knex, options, events)).toBeNull();
    await deletedOnce();
    expect(await readReaction(knex, CUSTOMER_CASCADE, deletion.id)).toMatchObject({ affected: 2 });
  });
});

/** A job's creation as the job command appends it (without the command's checks: a save that raced a deletion). */
async function appendJobCreated(jobId: string, jobNumber: string, customerId: string): Promise<void> {
  await server.runtime.deps.store.append(
    jobStream(jobId),
    [
      {
        id: randomUUID(),
        type: 'JobCreated',
        data: {
          jobId,
          instanceId: shop.id,
          jobNumber,
          name: 'Someone',
          phone: '',
          part: 'Linked part',
          makeModel: '',
          quote: null,
          stage: 'Quote',
          vin: '',
          csr: '',
          jobType: 'In Shop',
          appointment: null,
          duration: null,
          tech: '',
          notes: '',
          customerId,
        },
        metadata: testEventMetadata(shop.id),
      },
    ],
    { expectedRevision: 'no_stream' },
  );
}
