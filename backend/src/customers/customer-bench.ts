import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import type { StoredDomainEvent } from '@crm/projections/domain';
import { customersProjection } from '@crm/projections/readmodels/customers';
import { createProjectionContext } from '@crm/projections/readmodels/projection';
import { decodeCursor, findCustomer, listCustomers, suggestCustomers } from './customer-queries.ts';

/**
 * The customer list and search at scale: seeds one instance through the customers
 * projection (the same handler the projector runs), then times the API's queries against
 * a primary-key lookup through the same tenant-scoped path.
 */

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

export interface CustomerBenchResult {
  label: string;
  msPerQuery: number;
  ratio: number;
}

export async function benchCustomers(
  knex: Knex,
  options: { count: number; progress: (done: number, total: number) => void },
): Promise<CustomerBenchResult[]> {
  const instanceId = randomUUID();
  // A fixed-seed generator: the same data every run.
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const started = Date.parse('2024-01-01T00:00:00Z');

  const ids: string[] = [];
  const event = (i: number): StoredDomainEvent => {
    const customerId = randomUUID();
    ids.push(customerId);
    const at = new Date(started + i * 60_000).toISOString();
    return {
      id: randomUUID(),
      streamId: `customer-${customerId}`,
      revision: 0,
      position: { commit: BigInt(i), prepare: BigInt(i) },
      type: 'CustomerCreated',
      data: {
        customerId,
        instanceId,
        number: i + 1,
        name: `${pick(FIRST)} ${pick(LAST)} ${i}`,
        phone: String(2000000000 + Math.floor(random() * 7999999999)),
        email: random() < 0.5 ? `customer${i}@example.com` : '',
        address: `${Math.floor(random() * 9999)} ${pick(STREETS)}`,
        vehicles: `${2000 + Math.floor(random() * 25)} ${pick(VEHICLES)}${random() < 0.3 ? `, ${2000 + Math.floor(random() * 25)} ${pick(VEHICLES)}` : ''}`,
        pastAppointments: '',
        invoices: random() < 0.5 ? `INV-${i}` : '',
        notes: '',
      },
      metadata: {
        instanceId,
        actor: { kind: 'system', id: 'bench', displayName: 'Bench' },
        correlationId: 'bench',
        causationId: null,
        occurredAt: at,
        schemaVersion: 1,
      },
      recordedAt: new Date(at),
    };
  };

  const BATCH = 1000;
  let done = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < options.count) {
        const from = next;
        next = Math.min(options.count, next + BATCH);
        const batch = Array.from({ length: next - from }, (_, k) => event(from + k));
        await knex.transaction(async (trx) => {
          const ctx = createProjectionContext(trx, READ_MODEL_SCHEMA);
          for (const e of batch) await customersProjection.apply(e, ctx);
        });
        done += batch.length;
        options.progress(done, options.count);
      }
    }),
  );
  // Where autovacuum would have got to by now on a table this size (visibility map, statistics).
  await knex.raw('VACUUM ANALYZE ??.customers', [READ_MODEL_SCHEMA]);

  const time = async (iterations: number, work: (i: number) => Promise<unknown>) => {
    await work(0); // warm
    const t0 = performance.now();
    for (let i = 0; i < iterations; i++) await work(i);
    return (performance.now() - t0) / iterations;
  };

  const baseline = await time(300, (i) => findCustomer(knex, instanceId, ids[(i * 7919) % ids.length]!));
  const page = (search: string, cursor: string | null, limit = 50) =>
    listCustomers(knex, instanceId, { search, limit, cursor: cursor ? decodeCursor(cursor) : null });

  let cursor: string | null = null;
  for (let p = 1; p < 50; p++) cursor = (await page('', cursor)).nextCursor;
  const fiftieth = cursor;

  const results: Array<[string, number]> = [
    ['baseline: one customer by primary key', baseline],
    ['list, first page of 50 (with total)', await time(50, () => page('', null))],
    ['list, keyset page 50 (with total)', await time(50, () => page('', fiftieth))],
    ['search q= name fragment "garcia 12"', await time(50, () => page('garcia 12', null))],
    ['search q= phone digits "555-12"', await time(50, () => page('555-12', null))],
    ['search q= vehicle "wrangler"', await time(50, () => page('wrangler', null))],
    ['search q= no match "zzqx"', await time(50, () => page('zzqx', null))],
    ['autocomplete ?query= "rodrig"', await time(50, () => suggestCustomers(knex, instanceId, 'rodrig'))],
  ];
  return results.map(([label, ms]) => ({ label, msPerQuery: ms, ratio: ms / baseline }));
}
