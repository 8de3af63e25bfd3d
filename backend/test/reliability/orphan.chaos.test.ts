import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createShop, requireBuild, scratchDir, signIn, sleep, startServer, tail, type ChildServer } from './support.ts';

/**
 * The server runs its embedded PostgreSQL (no DATABASE_URL) under a watchdog that stops it
 * when the server's end of a pipe closes: kill -9 of the server (no shutdown handler runs)
 * must not leave the cluster running orphaned, and the next start finds the data intact.
 */
let dir: string;
const children: ChildServer[] = [];

afterAll(async () => {
  await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The postmaster's pid, from the cluster's own postmaster.pid (first line). */
function postmasterPid(dataDir: string): number {
  const file = path.join(dataDir, 'postgres', 'postmaster.pid');
  expect(existsSync(file), 'the embedded cluster is running').toBe(true);
  return Number(readFileSync(file, 'utf8').split('\n')[0]);
}

test('kill -9 of the server stops its embedded PostgreSQL; the next start finds the data', async () => {
  requireBuild();
  dir = scratchDir('orphan');
  const dataDir = path.join(dir, 'data');
  const first = await startServer({ dataDir });
  children.push(first);
  await createShop(first.url, 'orphan');
  const pid = postmasterPid(dataDir);
  expect(alive(pid)).toBe(true);

  await first.kill9();
  const killedAt = Date.now();
  while (alive(pid) && Date.now() - killedAt < 20_000) await sleep(50);
  const stoppedMs = Date.now() - killedAt;
  console.log(`[reliability] orphan: the embedded PostgreSQL stopped ${stoppedMs} ms after kill -9 of the server`);
  expect(alive(pid), `postgres ${pid} still running after kill -9 of its server\n${tail(first.logFile)}`).toBe(false);

  const second = await startServer({ dataDir });
  children.push(second);
  // The shop created before the kill is there (its owner signs in).
  const client = await signIn(second.url, 'orphan');
  expect((await client.get('/api/customers?limit=1')).status).toBe(200);
  const next = postmasterPid(dataDir);
  await second.stop();
  expect(alive(next), 'a clean stop stops the cluster too').toBe(false);
}, 240_000);
