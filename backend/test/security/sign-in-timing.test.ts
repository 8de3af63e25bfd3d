import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, createTestInstance, SUPER_ADMIN, startTestServer, type TestServer } from '../support/server.ts';

/**
 * Failed sign-ins take as long whether or not the account exists. Measured, interleaved, on
 * refused attempts for an existing name and an unknown one (staff and super admin), and
 * compared loosely: the medians must be close (within 30 % of the larger, or 15 ms), which
 * the unpaced server missed by the time it took to record the failure. The figures are
 * printed. SIGN_IN_TIMING_SAMPLES sets the attempts per kind (default 30).
 */

const SAMPLES = Number(process.env.SIGN_IN_TIMING_SAMPLES ?? 30);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'timing', { username: 'owner', pin: '1234' });
});
afterAll(async () => {
  await server?.stop();
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function timed(path: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await new ApiClient(server.url).post(path, body);
  const ms = performance.now() - started;
  expect(res.status, res.text).toBe(401);
  return ms;
}

test.each([
  [
    'staff',
    '/api/auth/login',
    { instance: 'timing', username: 'owner', pin: '0000' },
    { instance: 'timing', username: 'nobody', pin: '0000' },
  ],
  [
    'super admin',
    '/api/super-admin/login',
    { username: SUPER_ADMIN.username, password: 'wrong-password' },
    { username: 'not-the-admin', password: 'wrong-password' },
  ],
] as const)(
  '%s: refusals for an existing and an unknown name take about as long (medians printed)',
  async (who, path, existing, unknown) => {
    // Warm-up: the pace learns what a recorded refusal costs.
    for (let i = 0; i < 5; i++) await timed(path, existing);
    const known: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      known.push(await timed(path, existing));
      missing.push(await timed(path, unknown));
    }
    const [a, b] = [median(known), median(missing)];
    console.log(
      `sign-in timing (${who}, ${SAMPLES} each): existing name median ${a.toFixed(1)} ms, unknown name median ${b.toFixed(1)} ms`,
    );
    expect(Math.abs(a - b)).toBeLessThan(Math.max(15, 0.3 * Math.max(a, b)));
  },
  180_000,
);
