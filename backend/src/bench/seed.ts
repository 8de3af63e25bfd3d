import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import type { NewEvent } from '@crm/projections/eventstore/port';
import { JOB_TYPES, STAGES } from '@crm/projections/pipeline';
import { inlineProjections } from '@crm/projections/read-models';
import { projectWrittenEvents } from '@crm/projections/runtime/inline';
import { recordedEvent, type EventRow } from '@crm/projections/eventstore/postgres';

/**
 * Bulk seeding for the benchmark: customers and jobs made into events by the real deciders
 * and event factory (the composition root hands them in as a SeedDomain), written straight
 * into the PostgreSQL event store many streams per statement with the records' own rows
 * (inline read models), the rest projected by the server's own projector. 100,000 jobs take minutes this way, not the hours the API would.
 */

export interface SeedStream {
  streamId: string;
  events: NewEvent[];
}

export interface CustomerSeed {
  customerId: string;
  instanceId: string;
  number: number;
  name: string;
  phone: string;
  email: string;
  address: string;
  vehicles: string[];
  invoices: string[];
  at: Date;
}

/** A vehicle record of a customer, made from a vehicle typed on it (as the customer form makes one), with a plate or none. */
export interface VehicleSeed {
  vehicleId: string;
  instanceId: string;
  customerId: string;
  text: string;
  plate: string;
  at: Date;
}

export interface JobSeed {
  jobId: string;
  instanceId: string;
  jobNumber: string;
  customerId: string;
  name: string;
  phone: string;
  part: string;
  makeModel: string;
  quote: string;
  stage: (typeof STAGES)[number];
  jobType: (typeof JOB_TYPES)[number];
  csr: string;
  tech: string;
  appointment: string | null;
  duration: number | null;
  at: Date;
}

/** What the benchmark needs of the domain: each record's stream as its decider decides it. */
export interface SeedDomain {
  customer(seed: CustomerSeed): SeedStream;
  vehicle(seed: VehicleSeed): SeedStream;
  job(seed: JobSeed): SeedStream;
  /** The instance's job counter after `number` jobs, so numbers the API hands out follow on. */
  jobCounter(instanceId: string, number: number, at: Date): SeedStream;
}

export interface SeededInstance {
  instanceId: string;
  customers: number;
  jobs: number;
  /** Some customer ids (new jobs in the command benchmark are for them). */
  customerIds: string[];
  /** Some job ids (the update benchmark saves notes on them). */
  jobIds: string[];
}

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'Carlos',
  'Mei',
  'Ahmed',
  'Olga',
];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Nguyen', 'Kowalski'];
const VEHICLES = [
  'Honda Civic',
  'Toyota Camry',
  'Ford F-150',
  'Chevrolet Silverado',
  'Jeep Wrangler',
  'Subaru Outback',
  'Tesla Model 3',
  'BMW X5',
];
const STREETS = ['Main St', 'Oak Ave', 'Elm Road', 'Maple Dr', 'Cedar Ln', 'Pine Ct'];
const PARTS = ['Brake pads', 'Alternator', 'Timing belt', 'Water pump', 'Starter motor', 'Oil change', 'Tire rotation', 'Radiator'];
const STAFF = ['Chris CSR', 'Dana Desk', 'Terry Tech', 'Sam Service'];

/** Records span five years up to now; appointments fall within two weeks of a job's creation. */
const SPAN_MS = 5 * 365 * 24 * 3600_000;
const SAMPLE = 5000;
/**
 * The share of customers whose typed vehicles are vehicle records (made by the customer form
 * since it makes them, or by `vehicles:migrate`); the rest are older customers with typed text
 * only. Half the records carry a plate.
 */
const WITH_RECORDS = 0.7;
const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';

/** A fixed-seed generator: the same data every run. */
function generator(seed: number) {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  return { random, pick: <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]! };
}

/**
 * Appends new streams many per statement (each from revision 0), in one transaction per
 * batch, with the inline read models' rows for them (as the store's appends write them).
 */
export async function writeStreams(knex: Knex, streams: SeedStream[]): Promise<void> {
  const rows = streams.flatMap((stream, s) =>
    stream.events.map((event, revision) => ({
      ord: s * 1000 + revision,
      stream_id: stream.streamId,
      revision,
      id: event.id,
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    })),
  );
  await knex.transaction(async (trx) => {
    const written = await trx.raw<{ rows: EventRow[] }>(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset(?::jsonb)
           AS t(ord bigint, stream_id text, revision int, id uuid, type text, data jsonb, metadata jsonb)
       ), appended AS (
         INSERT INTO events (stream_id, revision, event_id, type, data, metadata)
         SELECT stream_id, revision, id, type, data, metadata FROM input ORDER BY ord
         RETURNING event_id, stream_id, revision, tx_id, seq, type, data, metadata, recorded_at
       ), streamed AS (
         INSERT INTO streams (stream_id, revision) SELECT stream_id, max(revision) FROM input GROUP BY stream_id
       )
       SELECT event_id::text, stream_id, revision, tx_id::text AS tx_text, seq::text AS seq_text, type, data, metadata, recorded_at
         FROM appended ORDER BY seq`,
      [JSON.stringify(rows)],
    );
    await projectWrittenEvents(trx, READ_MODEL_SCHEMA, inlineProjections, written.rows.map(recordedEvent));
  });
  // Wakes the projector (it would otherwise find the events at its next poll).
  await knex.raw(`SELECT pg_notify('events', '')`);
}

/**
 * Seeds one instance: `customers` customers and `jobs` jobs, each job for one of them.
 * `write` receives batches of streams (at most `batchSize` records each) and is awaited
 * with at most `parallel` batches in flight.
 */
export async function seedInstance(
  domain: SeedDomain,
  options: {
    instanceId: string;
    customers: number;
    jobs: number;
    seed: number;
    write: (streams: SeedStream[]) => Promise<void>;
    onWritten: (records: number) => void;
    batchSize?: number;
    parallel?: number;
  },
): Promise<SeededInstance> {
  const { instanceId } = options;
  const { random, pick } = generator(options.seed);
  const now = Date.now();
  const batchSize = options.batchSize ?? 1000;
  const parallel = options.parallel ?? 2;
  const customers: Array<{ id: string; name: string; phone: string; vehicle: string }> = [];
  const inFlight = new Set<Promise<void>>();
  let batch: SeedStream[] = [];

  let failure: unknown = null;
  const flush = async () => {
    if (batch.length === 0) return;
    const streams = batch;
    batch = [];
    const writing: Promise<void> = options
      .write(streams)
      .then(
        () => options.onWritten(streams.length),
        (error: unknown) => {
          failure ??= error;
        },
      )
      .finally(() => inFlight.delete(writing));
    inFlight.add(writing);
    if (inFlight.size >= parallel) await Promise.race(inFlight);
    if (failure) throw failure;
  };
  const add = async (stream: SeedStream) => {
    batch.push(stream);
    if (batch.length >= batchSize) await flush();
  };

  // Its own sequence, so the customers and jobs are the same with or without vehicle records.
  const records = generator(options.seed + 1);
  for (let i = 0; i < options.customers; i++) {
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    const phone = String(2_000_000_000 + Math.floor(random() * 7_999_999_999));
    const vehicle = `${2000 + Math.floor(random() * 25)} ${pick(VEHICLES)}`;
    const customerId = randomUUID();
    customers.push({ id: customerId, name, phone, vehicle });
    const at = new Date(now - SPAN_MS + Math.floor((i / Math.max(1, options.customers)) * SPAN_MS));
    const vehicles = random() < 0.3 ? [vehicle, `${2000 + Math.floor(random() * 25)} ${pick(VEHICLES)}`] : [vehicle];
    await add(
      domain.customer({
        customerId,
        instanceId,
        number: i + 1,
        name,
        phone,
        email: random() < 0.5 ? `${name.toLowerCase().replace(' ', '.')}${i}@example.com` : '',
        address: `${1 + Math.floor(random() * 9999)} ${pick(STREETS)}`,
        vehicles,
        invoices: random() < 0.5 ? [`INV-${10_000 + i}`] : [],
        at,
      }),
    );
    if (records.random() >= WITH_RECORDS) continue;
    // One record per label, as the customer form makes them.
    for (const text of new Set(vehicles)) {
      const plate =
        records.random() < 0.5
          ? `${1 + Math.floor(records.random() * 9)}${[0, 1, 2].map(() => records.pick([...PLATE_LETTERS])).join('')}${100 + Math.floor(records.random() * 900)}`
          : '';
      await add(domain.vehicle({ vehicleId: randomUUID(), instanceId, customerId, text, plate, at }));
    }
  }

  const jobIds: string[] = [];
  for (let i = 0; i < options.jobs; i++) {
    const customer = customers.length ? customers[Math.floor(random() * customers.length)]! : null;
    const at = now - SPAN_MS + Math.floor(((i + 1) / Math.max(1, options.jobs)) * SPAN_MS);
    const appointment =
      random() < 0.6 ? new Date(at + Math.floor(random() * 14) * 86_400_000 + (8 + Math.floor(random() * 9)) * 3600_000) : null;
    const jobId = randomUUID();
    jobIds.push(jobId);
    await add(
      domain.job({
        jobId,
        instanceId,
        jobNumber: String(i + 1),
        customerId: customer?.id ?? '',
        name: customer?.name ?? `Walk-in ${i + 1}`,
        phone: customer?.phone ?? '',
        part: pick(PARTS),
        makeModel: customer?.vehicle ?? pick(VEHICLES),
        quote: random() < 0.3 ? `${80 + Math.floor(random() * 900)}.95` : String(80 + Math.floor(random() * 900)),
        stage: pick(STAGES),
        jobType: pick(JOB_TYPES),
        csr: pick(STAFF),
        tech: pick(STAFF),
        appointment: appointment ? appointment.toISOString() : null,
        duration: appointment ? 30 * (1 + Math.floor(random() * 6)) : null,
        at: new Date(at),
      }),
    );
  }
  if (options.jobs > 0) await add(domain.jobCounter(instanceId, options.jobs, new Date(now)));
  await flush();
  await Promise.all(inFlight);
  if (failure) throw failure;

  // The newest records: what staff open and save most.
  return {
    instanceId,
    customers: options.customers,
    jobs: options.jobs,
    customerIds: customers.slice(-SAMPLE).map((c) => c.id),
    jobIds: jobIds.slice(-SAMPLE),
  };
}
