import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Runtime } from '../../src/runtime.ts';
import { ApiClient, createTestInstance, startSecondApiProcess, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Job and customer numbers under concurrency: creations in one instance do not wait for
 * each other, and they never share a number, within one API process or across two
 * processes (here: two servers) on one database.
 */

let server: TestServer;
/** A second API process on the same database, without a projector (as when scaled out). */
let second: Runtime;
let one: ApiClient;
let two: ApiClient;

const entry = (part: string) => ({ jobNumber: '', name: '', phone: '', part, makeModel: '', stage: 'Quote' });

beforeAll(async () => {
  server = await startTestServer();
  second = await startSecondApiProcess(server);
  await createTestInstance(server, 'numbers');
  one = await signInUser(server, 'numbers', 'owner', '1234');
  two = new ApiClient(second.url);
  expect((await two.post('/api/auth/login', { username: 'owner', pin: '1234', instance: 'numbers' })).status).toBe(200);
});

afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

const P = '/api/numbers/pipeline';

describe('job numbers under concurrency', () => {
  test('32 creations at once in one instance get 32 distinct numbers', async () => {
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) => one.post(P, entry(`burst ${i}`))));
    expect(results.map((r) => r.status)).toEqual(Array(32).fill(201));
    const numbers = results.map((r) => r.body.jobNumber as string);
    expect(numbers.every((n) => /^\d+$/.test(n))).toBe(true);
    expect(new Set(numbers).size).toBe(32);
  });

  test('two API processes on one database creating at once never share a number', async () => {
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? one : two).post(P, entry(`two servers ${i}`))));
    expect(results.map((r) => r.status)).toEqual(Array(32).fill(201));
    const numbers = results.map((r) => r.body.jobNumber as string);
    expect(new Set(numbers).size).toBe(32);
    // Every job of the instance, both bursts included, has a number of its own.
    const list = await one.get(`${P}?limit=100&canceled=include`);
    expect(list.status).toBe(200);
    const all = (list.body.items as Array<{ jobNumber: string }>).map((job) => job.jobNumber);
    expect(all).toHaveLength(64);
    expect(new Set(all).size).toBe(64);
  });

  test('customers made with jobs at once, on both processes, get distinct numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (i % 2 === 0 ? one : two).post(P, { ...entry(`with customer ${i}`), name: `Customer ${i}`, phone: '5550001111' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(201));
    const customers = await one.get('/api/customers?limit=100');
    expect(customers.status).toBe(200);
    const numbers = (customers.body.items as Array<{ number: number }>).map((c) => c.number);
    expect(numbers).toHaveLength(16);
    expect(new Set(numbers).size).toBe(16);
  });
});
