import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import { startSmtpServer } from '../messages/fakes.ts';
import { createShop, requireBuild, scratchDir, startServer, tail, type ChildServer } from './support.ts';

/**
 * The links in messages point where customers reach the API. With `npm start` the message
 * sender runs in the server's child process, whose own PORT is a free loopback port; with no
 * PUBLIC_URL set, the links must still name the address the server prints, not the child's
 * port (they read http://localhost:0/… before the server handed its address down).
 */

let db: TestDatabase;
let dir: string;
let server: ChildServer | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;

beforeAll(async () => {
  requireBuild();
  db = await createTestDatabase();
  dir = scratchDir('message-links');
  smtp = await startSmtpServer();
}, 120_000);

afterAll(async () => {
  await server?.stop().catch(() => undefined);
  await smtp?.stop();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('links in messages sent by npm start', () => {
  test("the unsubscribe link names the server's own address, and posting to it unsubscribes", async () => {
    server = await startServer({
      dataDir: path.join(dir, 'api'),
      databaseUrl: db.url,
      env: { SMTP_URL: smtp!.url, SMTP_FROM: 'crm@example.test', PUBLIC_URL: '' },
    });
    const { client } = await createShop(server.url, 'linkshop');
    const customer = await client.post('/api/linkshop/customers', { name: 'Lena Link', email: 'lena@example.test' });
    expect(customer.status, customer.text).toBe(201);
    const id = customer.body.id as string;
    expect((await client.put(`/api/linkshop/customers/${id}/consent`, { emailConsent: true })).status).toBe(200);
    const appointment = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const job = await client.post('/api/linkshop/pipeline', { name: 'Lena Link', customerId: id, stage: 'Scheduled', appointment });
    expect(job.status, job.text).toBe(201);

    await expect
      .poll(() => smtp!.mails.filter((mail) => mail.to.join(',') === 'lena@example.test').length, {
        timeout: 60_000,
        message: tail(server.logFile),
      })
      .toBe(1);
    const raw = smtp!.mails[0]!.raw.replace(/\r?\n[ \t]+/g, ' ');
    const link = /^List-Unsubscribe: <([^>]+)>/m.exec(raw)?.[1] ?? '';
    // The server listens on 127.0.0.1:{port} and prints http://localhost:{port}.
    const port = new URL(server.url).port;
    expect(link, raw).toMatch(new RegExp(`^http://localhost:${port}/api/public/messages/unsubscribe\\?token=`));

    const done = await fetch(`${server.url}${new URL(link).pathname}${new URL(link).search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect((await client.get(`/api/linkshop/customers/${id}`)).body).toMatchObject({ emailConsent: false });
  }, 180_000);
});
