import { isolateTenant, type SchemaMigration } from '../shared/migrations.ts';

/**
 * The messages' read-model migrations (named in the 006x range of their own; migrations run
 * ordered by name across all slices, and names are never changed).
 *
 * - messages: the outbox, one row per message. `state` is finer than the API's status
 *   (`sending`: an attempt is recorded and has no outcome yet; `canceled`). The sender
 *   finds due work through the two partial indexes.
 * - message_templates / messaging_settings: what a shop changed (defaults live in code).
 * - customer_consent: each customer's consent per channel with who changed it last.
 */
const messageTables: SchemaMigration = {
  name: '0060_messages',
  async up(knex, schema) {
    await knex.raw(
      `
      CREATE TABLE ??.messages (
        id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        kind text NOT NULL,
        channel text NOT NULL,
        to_address text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        attachments jsonb NOT NULL,
        state text NOT NULL,
        error text,
        retryable boolean NOT NULL DEFAULT false,
        attempts integer NOT NULL DEFAULT 0,
        job_id uuid,
        customer_id uuid,
        service_request_id uuid,
        created_at timestamptz NOT NULL,
        send_after timestamptz NOT NULL,
        last_attempt_at timestamptz,
        next_attempt_at timestamptz,
        sent_at timestamptz,
        provider_message_id text,
        updated_at timestamptz NOT NULL,
        revision integer NOT NULL
      )`,
      [schema],
    );
    await knex.raw('CREATE INDEX ON ??.messages (instance_id, created_at DESC, id DESC)', [schema]);
    await knex.raw('CREATE INDEX ON ??.messages (instance_id, job_id) WHERE job_id IS NOT NULL', [schema]);
    await knex.raw('CREATE INDEX ON ??.messages (instance_id, customer_id) WHERE customer_id IS NOT NULL', [schema]);
    await knex.raw(`CREATE INDEX messages_due_queued ON ??.messages (send_after) WHERE state = 'queued'`, [schema]);
    await knex.raw(`CREATE INDEX messages_due_retry ON ??.messages (next_attempt_at) WHERE state = 'failed' AND retryable`, [schema]);
    await knex.raw(`CREATE INDEX messages_in_flight ON ??.messages (last_attempt_at) WHERE state = 'sending'`, [schema]);
    await isolateTenant(knex, schema, 'messages');

    await knex.raw(
      `
      CREATE TABLE ??.message_templates (
        instance_id uuid NOT NULL,
        kind text NOT NULL,
        subject text NOT NULL,
        email_body text NOT NULL,
        sms_body text NOT NULL,
        updated_at timestamptz NOT NULL,
        updated_by text NOT NULL,
        PRIMARY KEY (instance_id, kind)
      )`,
      [schema],
    );
    await isolateTenant(knex, schema, 'message_templates');
    await knex.raw(
      `
      CREATE TABLE ??.messaging_settings (
        instance_id uuid PRIMARY KEY,
        from_address text NOT NULL DEFAULT '',
        shop_phone text NOT NULL DEFAULT '',
        reminder_hour integer
      )`,
      [schema],
    );
    await isolateTenant(knex, schema, 'messaging_settings');
    await knex.raw(
      `
      CREATE TABLE ??.customer_consent (
        customer_id uuid PRIMARY KEY,
        instance_id uuid NOT NULL,
        email_consent boolean NOT NULL DEFAULT false,
        sms_consent boolean NOT NULL DEFAULT false,
        email_changed jsonb,
        sms_changed jsonb,
        revision integer NOT NULL
      )`,
      [schema],
    );
    await isolateTenant(knex, schema, 'customer_consent');
  },
};

/**
 * messages.cause: what kind of failure left a message failed or not sent (MESSAGE_FAILURE_CAUSES),
 * which is what staff are told (null on a row whose failure was recorded before causes were,
 * until 0085).
 */
const messageCause: SchemaMigration = {
  name: '0083_message_cause',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.messages ADD COLUMN cause text', [schema]);
  },
};

/**
 * Fills messages.cause once for the rows whose failure was recorded before causes were, from
 * the text the server wrote then: the outbox's reads take the cause only. The rules are those
 * the events of those failures are read with (recorded-causes.ts, copied here as SQL: a
 * migration stands alone), so a rebuild gives the same rows. A not-sent row whose text tells
 * no cause keeps null (shown as recorded).
 */
const messageCauseOfOldRows: SchemaMigration = {
  name: '0085_message_cause_of_old_rows',
  async up(knex, schema) {
    await knex.raw(
      `
      UPDATE ??.messages
         SET cause = CASE
               WHEN state = 'not-sent' THEN
                 CASE
                   WHEN starts_with(error, 'Not sent: no SMTP server is configured')
                     OR starts_with(error, 'Not sent: no text-message provider is configured')
                     OR starts_with(error, 'E-mail is not set up for this shop')
                     OR starts_with(error, 'Text messages are not set up for this shop') THEN 'not-configured'
                   WHEN starts_with(error, 'Not sent: the customer withdrew consent') THEN 'no-consent'
                 END
               WHEN error ~ '^SMTP [0-9]{3}\\y' THEN
                 CASE WHEN substring(error FROM 6 FOR 3)::int < 500 THEN 'deferred' ELSE 'refused' END
               WHEN error ~ '^Twilio [0-9]{3}\\y' THEN
                 CASE WHEN substring(error FROM 8 FOR 3)::int = 429 OR substring(error FROM 8 FOR 3)::int >= 500
                      THEN 'deferred' ELSE 'refused' END
               WHEN starts_with(error, 'SMTP server unreachable') OR starts_with(error, 'Twilio unreachable') THEN 'unreachable'
               WHEN starts_with(error, 'Could not prepare the message') THEN 'not-prepared'
               ELSE 'uncertain'
             END
       WHERE state IN ('failed', 'not-sent') AND cause IS NULL AND error IS NOT NULL`,
      [schema],
    );
  },
};

export const messagesMigrations: SchemaMigration[] = [messageTables, messageCause, messageCauseOfOldRows];
