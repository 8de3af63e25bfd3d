import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@crm/projections/db/embedded';

/**
 * The embedded PostgreSQL is no open door for other local accounts: its superuser password
 * is random per cluster and kept beside the data for this user only, it listens on loopback
 * only and has no Unix socket, and the old constant password does not get in.
 */

const parent = mkdtempSync(path.join(tmpdir(), 'crm-embedded-'));
const dataDir = path.join(parent, 'pg');
let cluster: EmbeddedPostgresHandle;

beforeAll(async () => {
  cluster = await startEmbeddedPostgres({ dataDir, persistent: false });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
});

async function query(url: string, sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query(sql);
    return String(Object.values(result.rows[0] ?? {})[0]);
  } finally {
    await client.end();
  }
}

test('a random password kept for this user only; loopback only, no Unix socket; the old constant is refused', async () => {
  const url = new URL(cluster.adminUrl);
  const file = `${dataDir}.password`;
  expect(readFileSync(file, 'utf8').trim()).toBe(decodeURIComponent(url.password));
  expect(url.password).toMatch(/^[0-9a-f]{48}$/);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(url.hostname).toBe('127.0.0.1');

  expect(await query(cluster.adminUrl, 'SHOW listen_addresses')).toBe('127.0.0.1');
  expect(await query(cluster.adminUrl, 'SHOW unix_socket_directories')).toBe('');
  expect(await query(cluster.adminUrl, 'SHOW password_encryption')).toBe('scram-sha-256');

  const constant = new URL(cluster.adminUrl);
  constant.password = 'embedded';
  await expect(query(constant.toString(), 'SELECT 1')).rejects.toThrow(/password authentication failed/);
});
