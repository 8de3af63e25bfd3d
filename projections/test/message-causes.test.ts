import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA, readModelMigrations } from '../src/db/migrate.ts';
import type { EventStore } from '../src/eventstore/port.ts';
import { causeOfRecordedText } from '../src/messages/recorded-causes.ts';
import { projections } from '../src/read-models.ts';
import { MAIN_CHECKPOINT, readCheckpoint } from '../src/runtime/checkpoints.ts';
import { Projector } from '../src/runtime/projector.ts';
import { rebuildReadModels } from '../src/runtime/rebuild.ts';
import type { TestDatabase } from '../src/testing/database.ts';
import { reachedLastCommitted, testEventMetadata } from '../src/testing/events.ts';
import { schemaVersionOf, upcastData } from '../src/upcasters.ts';
import { openStoreDatabase, type StoreDatabase } from './store-database.ts';

/**
 * A message failure recorded before failures carried their kind (`cause`): its events are
 * read with the cause told from their text, and the outbox rows projected before were filled
 * once by a migration, so the reads take `cause` alone and a rebuild gives the same rows.
 */

let db: TestDatabase;
let knex: Knex;
let store: EventStore;
let env: StoreDatabase | undefined;

beforeAll(async () => {
  env = await openStoreDatabase({ poolMax: 6 });
  ({ db, knex, store } = env);
});

afterAll(() => env?.close());

/** Texts the server wrote before failures carried their kind, and the kind each tells. */
const RECORDED: Array<{ state: 'failed' | 'not-sent'; text: string; cause: string | null }> = [
  { state: 'not-sent', text: 'Not sent: no SMTP server is configured (SMTP_URL)', cause: 'not-configured' },
  {
    state: 'not-sent',
    text: 'Not sent: no text-message provider is configured (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM_NUMBER)',
    cause: 'not-configured',
  },
  { state: 'not-sent', text: 'E-mail is not set up for this shop — ask your administrator', cause: 'not-configured' },
  { state: 'not-sent', text: 'Text messages are not set up for this shop — ask your administrator', cause: 'not-configured' },
  { state: 'not-sent', text: 'Not sent: the customer withdrew consent for this channel', cause: 'no-consent' },
  { state: 'not-sent', text: 'Held back by the shop', cause: null },
  { state: 'failed', text: 'SMTP 550: 550 No such mailbox here', cause: 'refused' },
  { state: 'failed', text: 'SMTP 421: try later (gave up after 5 tries)', cause: 'deferred' },
  { state: 'failed', text: 'Twilio 503: busy', cause: 'deferred' },
  { state: 'failed', text: 'Twilio 429: too many requests', cause: 'deferred' },
  { state: 'failed', text: 'Twilio 400: The To number is invalid (code 21211)', cause: 'refused' },
  { state: 'failed', text: 'SMTP 5500 is no status', cause: 'uncertain' },
  { state: 'failed', text: 'SMTP server unreachable: connect ECONNREFUSED', cause: 'unreachable' },
  { state: 'failed', text: 'Twilio unreachable: ETIMEDOUT', cause: 'unreachable' },
  { state: 'failed', text: 'Could not prepare the message: no PDF', cause: 'not-prepared' },
  { state: 'failed', text: 'Interrupted while sending (the sender stopped)', cause: 'uncertain' },
];

describe('the kind of a failure recorded before failures carried one', () => {
  test('is told from the text the server wrote then', () => {
    for (const { state, text, cause } of RECORDED) expect(causeOfRecordedText(state, text), text).toBe(cause);
  });

  test('is read into the events of version 1 that lack it; a cause recorded is kept; version 2 is read as written', () => {
    expect(schemaVersionOf('MessageFailed')).toBe(2);
    expect(schemaVersionOf('MessageNotSent')).toBe(2);
    const failed = { messageId: 'm', attempt: 1, error: 'SMTP 550: 550 No such mailbox here', retryable: false, nextAttemptAt: null };
    expect(upcastData('MessageFailed', 1, failed)).toEqual({ ...failed, cause: 'refused' });
    expect(upcastData('MessageFailed', 1, { ...failed, cause: 'address-rejected' })).toEqual({ ...failed, cause: 'address-rejected' });
    expect(upcastData('MessageNotSent', 1, { messageId: 'm', reason: 'Not sent: the customer withdrew consent' })).toEqual({
      messageId: 'm',
      reason: 'Not sent: the customer withdrew consent',
      cause: 'no-consent',
    });
    expect(upcastData('MessageNotSent', 1, { messageId: 'm', reason: 'Held back by the shop' })).toEqual({
      messageId: 'm',
      reason: 'Held back by the shop',
    });
    expect(upcastData('MessageFailed', 2, failed)).toBe(failed);
  });

  test('the migration fills the rows projected without it as the events are read, and a rebuild gives identical tables', async () => {
    const instanceId = randomUUID();
    const ids = new Map<string, string | null>();
    for (const { state, text, cause } of RECORDED) {
      const messageId = randomUUID();
      const channel = text.startsWith('Twilio') || text.startsWith('Text') ? 'sms' : 'email';
      const queued = {
        messageId,
        instanceId,
        kind: 'appointment-reminder',
        channel,
        to: channel === 'email' ? 'sam@example.test' : '+15550001111',
        subject: 'Reminder',
        body: 'See you tomorrow',
        attachments: [],
        jobId: null,
        customerId: null,
        serviceRequestId: null,
        triggerEventId: randomUUID(),
        sendAfter: new Date().toISOString(),
      };
      // As written before causes were: schema version 1, no cause.
      const events =
        state === 'failed'
          ? [
              { type: 'MessageQueued', data: queued },
              { type: 'MessageSendAttempted', data: { messageId, attempt: 1, idempotencyKey: `${messageId}:1` } },
              { type: 'MessageFailed', data: { messageId, attempt: 1, error: text, retryable: false, nextAttemptAt: null } },
            ]
          : [
              { type: 'MessageQueued', data: queued },
              { type: 'MessageNotSent', data: { messageId, reason: text } },
            ];
      await store.append(
        `message-${messageId}`,
        events.map((event) => ({ id: randomUUID(), ...event, metadata: testEventMetadata(instanceId) })),
        { expectedRevision: 'no_stream' },
      );
      ids.set(messageId, cause);
    }

    const projector = new Projector({ store, knex, connectionString: db.url, projections, schema: READ_MODEL_SCHEMA });
    projector.start();
    try {
      await expect
        .poll(async () => reachedLastCommitted(knex, await readCheckpoint(knex, MAIN_CHECKPOINT)), { timeout: 30_000 })
        .toBe(true);
      // The rows as the projection wrote them before it read causes into old events.
      await env!
        .rm('messages')
        .whereIn('id', [...ids.keys()])
        .update({ cause: null });
      await readModelMigrations.find((m) => m.name === '0085_message_cause_of_old_rows')!.up(knex, READ_MODEL_SCHEMA);
      const rows = (await env!
        .rm('messages')
        .whereIn('id', [...ids.keys()])
        .select('id', 'cause')) as Array<{ id: string; cause: string | null }>;
      expect(new Map(rows.map((row) => [row.id, row.cause]))).toEqual(ids);

      const report = await rebuildReadModels({ store, knex, projections });
      expect(report.tables.find((t) => t.table === 'messages')).toMatchObject({ identical: true, liveRows: RECORDED.length });
      expect(report.identical).toBe(true);
    } finally {
      await projector.stop();
    }
  });
});
