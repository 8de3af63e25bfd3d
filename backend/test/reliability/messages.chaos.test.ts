import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MessagePage, MessageView } from '@crm/projections/messages';
import { createTestDatabase, type TestDatabase } from '@crm/projections/testing/database';
import { startSmtpServer } from '../messages/fakes.ts';
import { createShop, requireBuild, scratchDir, signIn, startServer, tail, type ChildServer } from './support.ts';

/**
 * kill -9 of the server while it sends a burst of e-mails. The sender records each attempt
 * (MessageSendAttempted) before it talks to the SMTP server and the outcome after; the one
 * window SMTP leaves is between the server taking the message and the sender recording
 * MessageSent. The test kills the process exactly there: the SMTP server has the 6th
 * message's data and has not yet answered 250. After the restart, the new sender finds
 * that attempt without an outcome and records it failed as interrupted instead of sending
 * it again, so every address receives its message exactly once: none twice, none lost
 * except that the interrupted one is shown as failed (a person may retry it).
 */

const BURST = 24;
const KILL_AT = 6;

let db: TestDatabase;
let dir: string;
const children: ChildServer[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | undefined;
/** Resolves when the KILL_AT-th message's data has arrived (its 250 held back). */
let held: Promise<() => void>;

beforeAll(async () => {
  requireBuild();
  db = await createTestDatabase();
  dir = scratchDir('messages-crash');
  let hold: (release: () => void) => void = () => undefined;
  held = new Promise((resolve) => (hold = resolve));
  let received = 0;
  smtp = await startSmtpServer({
    holdAnswer: (_mail, answer) => {
      received += 1;
      if (received !== KILL_AT) return false;
      // The message is here; the sender has not heard so. It is killed now.
      hold(answer);
      return true;
    },
  });
}, 120_000);

afterAll(async () => {
  await Promise.all(children.map((c) => c.stop().catch(() => undefined)));
  await smtp?.stop();
  await db?.drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

async function server(): Promise<ChildServer> {
  const child = await startServer({
    dataDir: path.join(dir, 'api'),
    databaseUrl: db.url,
    env: { SMTP_URL: smtp!.url, SMTP_FROM: 'crm@example.test', LOG_LEVEL: 'info' },
  });
  children.push(child);
  return child;
}

const address = (i: number) => `burst${i}@example.test`;

describe('kill -9 during a burst of messages', () => {
  test('each message reaches the SMTP server once; the one caught in flight is recorded as interrupted, not sent again', async () => {
    const first = await server();
    const shop = await createShop(first.url, 'burstmsg');
    for (let i = 0; i < BURST; i++) {
      const res = await shop.client.post('/api/burstmsg/service-requests', {
        customerName: `Burst ${i}`,
        contactEmail: address(i),
        vehicleType: 'Sedan',
      });
      expect(res.status, res.text).toBe(201);
    }

    const release = await held;
    await first.kill9();
    release();
    expect(smtp!.mails.length).toBe(KILL_AT);

    const second = await server();
    const client = await signIn(second.url, 'burstmsg');
    const list = async (): Promise<MessageView[]> => {
      const res = await client.get<MessagePage>('/api/burstmsg/messages?limit=200');
      expect(res.status, res.text).toBe(200);
      return res.body.items;
    };
    await expect
      .poll(async () => (await list()).filter((m) => m.status === 'sent' || m.status === 'failed').length, {
        timeout: 180_000,
        interval: 1000,
        message: tail(second.logFile),
      })
      .toBe(BURST);
    // Give a resend, were there one, time to arrive before counting.
    await expect.poll(() => smtp!.mails.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(BURST);

    const messages = await list();
    expect(messages).toHaveLength(BURST);
    const received = (to: string) => smtp!.mails.filter((mail) => mail.to.join(',') === to).length;
    // Never twice: every address got exactly one e-mail, the interrupted one included.
    for (let i = 0; i < BURST; i++) expect(received(address(i)), address(i)).toBe(1);
    expect(smtp!.mails).toHaveLength(BURST);

    const failed = messages.filter((m) => m.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ to: smtp!.mails[KILL_AT - 1]!.to.join(','), retrying: false });
    expect(failed[0]!.detail).toMatch(/Interrupted while sending/);
    expect(failed[0]!.reason).toMatch(/it may have arrived, so it is not sent again on its own/);
    expect(messages.filter((m) => m.status === 'sent')).toHaveLength(BURST - 1);
  });
});
