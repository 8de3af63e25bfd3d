import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import pg from 'pg';
import type { EventStore } from '@crm/projections/eventstore/port';
import { MESSAGE_MAX_ATTEMPTS, type MessageChannel } from '@crm/projections/messages';
import type { Config } from '../config.ts';
import type { Logger } from '../logger.ts';
import { executeCommand, loadAggregate, systemContext, type CommandContext, type LoadedStream } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import { consentOf } from './message-context.ts';
import { attemptKey, isSendable, messageDecider, messageStream, type MessageCommand, type MessageState } from './message-decider.ts';
import { NOT_CONFIGURED_SETTINGS, TransportError, type MessageTransport } from './transports.ts';
import { unsubscribeUrl } from './links.ts';
import { MESSAGES_ACTOR } from './outbox-reactor.ts';

export const SENDER_LOCK = 'crm:message-sender';

export interface SenderOptions {
  store: EventStore;
  knex: Knex;
  connectionString: string;
  config: Config;
  logger: Logger;
  transports: Partial<Record<MessageChannel, MessageTransport>>;
  now?: () => Date;
  /** How often it looks for due messages (and a standby for the lock). */
  pollMs?: number;
  /** The pause before the first automatic retry; it doubles with each further one. */
  retryBaseMs?: number;
  /** Files that go with a message (the invoice's PDF), by attachment. */
  attachmentLoader?: (attachment: { kind: string; invoiceId: string; filename: string }, instanceId: string) => Promise<Buffer>;
}

/**
 * The sender: delivers queued messages off the request path, one process at a time (a
 * PostgreSQL advisory lock elects it, like the projector; the others stand by).
 *
 * The guarantee: **at most once per attempt, and no attempt is ever repeated on its own.**
 * Before calling the provider it records the attempt (MessageSendAttempted, appended at the
 * revision it read: of two senders only one can claim an attempt). The outcome is recorded
 * after: MessageSent; MessageFailed, retried with exponential backoff only when the
 * provider refused it or could not be reached (nothing was delivered); or, when the
 * connection broke after the message may have gone, failed without an automatic retry.
 * A sender that takes over (after a crash, a kill -9, a lost lock) finds attempts with no
 * outcome and records them failed as "interrupted" without sending them again; a person
 * may retry them from the outbox. So a message reaches the provider at most once unless a
 * person asks again, and every e-mail attempt carries its own Message-ID
 * (`<messageId.attempt@crm.messages>`) for the receiving side to recognise.
 */
export class MessageSender {
  private stopped = false;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private lockClient: pg.Client | null = null;
  leader = false;
  sent = 0;

  constructor(private readonly options: SenderOptions) {}

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  start(): void {
    this.running ??= this.run().catch((error: unknown) => this.options.logger.error({ err: error }, 'message sender stopped unexpectedly'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
    await this.release();
  }

  /** Looks for due messages now rather than at the next poll. */
  poke(): void {
    this.wake?.();
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopped) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  private async release(): Promise<void> {
    const client = this.lockClient;
    this.lockClient = null;
    this.leader = false;
    await client?.end().catch(() => undefined);
  }

  private async tryLead(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.options.connectionString, application_name: SENDER_LOCK, keepAlive: true });
    client.on('error', () => undefined);
    await client.connect();
    const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [SENDER_LOCK]);
    if (!result.rows[0]?.locked) {
      await client.end().catch(() => undefined);
      return false;
    }
    this.lockClient = client;
    this.leader = true;
    return true;
  }

  /** The lock goes with its connection: a dead connection is a lost lock. */
  private async stillLeader(): Promise<boolean> {
    try {
      await this.lockClient?.query('SELECT 1');
      return this.lockClient !== null;
    } catch {
      return false;
    }
  }

  private async run(): Promise<void> {
    const pollMs = this.options.pollMs ?? 1000;
    while (!this.stopped) {
      try {
        if (!this.leader && !(await this.tryLead())) {
          await this.pause(pollMs);
          continue;
        }
        this.options.logger.info('message sender active');
        while (!this.stopped && (await this.stillLeader())) {
          // Nothing of ours is in flight between two sends: an attempt found without an
          // outcome was a previous sender's (also one the read model showed only late).
          await this.recoverInterrupted();
          const worked = await this.sendDue();
          if (!worked) await this.pause(pollMs);
        }
      } catch (error) {
        if (this.stopped) break;
        this.options.logger.error({ err: error }, 'message sender failed; it starts over after a pause');
      }
      await this.release();
      await this.pause(pollMs);
    }
  }

  private ctx(instanceId: string): CommandContext {
    const now = this.now();
    return { ...systemContext(now, MESSAGES_ACTOR.id, MESSAGES_ACTOR.displayName), instanceId, actor: MESSAGES_ACTOR };
  }

  private async record(messageId: string, instanceId: string, command: MessageCommand, loaded?: LoadedStream<MessageState>) {
    return await executeCommand({
      store: this.options.store,
      streamId: messageStream(messageId),
      decider: messageDecider,
      command,
      ctx: this.ctx(instanceId),
      ...(loaded ? { loaded, expectedRevision: loaded.revision ?? undefined } : {}),
    });
  }

  /** An outcome must be recorded: it is retried until the store takes it (or we stop). */
  private async recordOutcome(messageId: string, instanceId: string, command: MessageCommand): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.record(messageId, instanceId, command);
        return;
      } catch (error) {
        if (this.stopped || attempt >= 20) throw error;
        this.options.logger.warn({ err: error, messageId }, 'could not record a message outcome yet; trying again');
        await sleep(Math.min(5000, 100 * 2 ** attempt));
      }
    }
  }

  /** Attempts a previous sender left without an outcome: recorded as interrupted, never resent on their own. */
  private async recoverInterrupted(): Promise<void> {
    const rows = (await this.options.knex.withSchema('rm').from('messages').where('state', 'sending').select('id')) as Array<{
      id: string;
    }>;
    for (const { id } of rows) {
      const loaded = await loadAggregate(this.options.store, messageStream(id), messageDecider);
      if (loaded.state.status !== 'sending') continue;
      const { attempt, message } = loaded.state;
      await this.record(id, message.instanceId, {
        type: 'RecordFailure',
        attempt,
        error: 'Interrupted while sending (the sender stopped); it may or may not have been delivered, so it is not sent again on its own',
        cause: 'uncertain',
        retryable: false,
        nextAttemptAt: null,
      });
      this.options.logger.warn({ messageId: id, attempt }, 'message attempt interrupted; recorded as failed');
    }
  }

  /** Sends what is due, a batch at a time; whether there was anything. */
  private async sendDue(): Promise<boolean> {
    const now = this.now();
    const rows = (await this.options.knex
      .withSchema('rm')
      .from('messages')
      .where((q) => {
        void q
          .where((w) => {
            void w.where('state', 'queued').andWhere('send_after', '<=', now);
          })
          .orWhere((w) => {
            void w.where('state', 'failed').andWhere('retryable', true).andWhere('next_attempt_at', '<=', now);
          });
      })
      .orderBy('send_after')
      .limit(20)
      .select('id')) as Array<{ id: string }>;
    let worked = false;
    for (const { id } of rows) {
      if (this.stopped || !(await this.stillLeader())) break;
      if (await this.sendOne(id)) worked = true;
    }
    return worked;
  }

  /** Delivers one message if it is (still) due; whether it did anything. */
  async sendOne(messageId: string): Promise<boolean> {
    const { store, transports, logger } = this.options;
    const loaded = await loadAggregate(store, messageStream(messageId), messageDecider);
    const state = loaded.state;
    if (!isSendable(state)) return false;
    const { message } = state;
    const transport = transports[message.channel];
    if (!transport) {
      logger.info({ messageId, channel: message.channel }, `message not sent: ${NOT_CONFIGURED_SETTINGS[message.channel]}`);
      await this.record(
        messageId,
        message.instanceId,
        { type: 'RecordNotSent', reason: `Not sent: ${NOT_CONFIGURED_SETTINGS[message.channel]}`, cause: 'not-configured' },
        loaded,
      ).catch(ignoreConflict);
      return true;
    }
    // Consent is asked again at the last moment: withdrawn since it was queued, nothing goes.
    if (message.customerId && !(await consentOf(store, message.customerId))[message.channel]) {
      await this.record(
        messageId,
        message.instanceId,
        { type: 'RecordNotSent', reason: 'Not sent: the customer withdrew consent for this channel', cause: 'no-consent' },
        loaded,
      ).catch(ignoreConflict);
      return true;
    }
    let claimed;
    try {
      claimed = await this.record(messageId, message.instanceId, { type: 'StartAttempt' }, loaded);
    } catch (error) {
      // Another sender (or a person's retry) moved it meanwhile: not ours to send.
      if (error instanceof ConflictError) return false;
      throw error;
    }
    if (claimed.state.status !== 'sending') return false;
    const attempt = claimed.state.attempt;
    const triesSinceRetry = claimed.state.triesSinceRetry;
    try {
      let prepared;
      try {
        prepared = {
          from: message.channel === 'email' ? await this.fromAddress(message.instanceId) : '',
          attachments: await this.attachments(message),
        };
      } catch (error) {
        // Nothing reached the provider yet: a later try may well find what it needs.
        throw new TransportError(`Could not prepare the message: ${(error as Error).message}`, 'unreachable', true, 'not-prepared');
      }
      const receipt = await transport.send({
        channel: message.channel,
        idempotencyKey: attemptKey(messageId, attempt),
        from: prepared.from,
        to: message.to,
        subject: message.subject,
        body: message.body,
        attachments: prepared.attachments,
        unsubscribeUrl:
          message.channel === 'email' && message.customerId
            ? unsubscribeUrl(this.options.config, { instanceId: message.instanceId, customerId: message.customerId, channel: 'email' })
            : null,
      });
      await this.recordOutcome(messageId, message.instanceId, { type: 'RecordSent', attempt, ...receipt });
      this.sent++;
    } catch (error) {
      const failure =
        error instanceof TransportError ? error : new TransportError(`Could not send: ${(error as Error).message}`, 'uncertain', false);
      const retryable = failure.retryable && triesSinceRetry < MESSAGE_MAX_ATTEMPTS;
      const base = this.options.retryBaseMs ?? this.options.config.MESSAGE_RETRY_BASE_MS;
      const nextAttemptAt = retryable ? new Date(this.now().getTime() + base * 2 ** (triesSinceRetry - 1)).toISOString() : null;
      const error_ = failure.retryable && !retryable ? `${failure.message} (gave up after ${MESSAGE_MAX_ATTEMPTS} tries)` : failure.message;
      logger.warn({ messageId, attempt, outcome: failure.outcome, retryable }, `message not sent: ${failure.message}`);
      await this.recordOutcome(messageId, message.instanceId, {
        type: 'RecordFailure',
        attempt,
        error: error_,
        cause: failure.failureCause,
        retryable,
        nextAttemptAt,
      });
    }
    return true;
  }

  private async fromAddress(instanceId: string): Promise<string> {
    const row = (await this.options.knex
      .withSchema('rm')
      .from('messaging_settings')
      .where('instance_id', instanceId)
      .first('from_address')) as { from_address: string } | undefined;
    return row?.from_address || this.options.config.SMTP_FROM;
  }

  private async attachments(message: { attachments: Array<{ kind: string; invoiceId: string; filename: string }>; instanceId: string }) {
    const loader = this.options.attachmentLoader;
    if (!loader) return [];
    return await Promise.all(
      message.attachments.map(async (attachment) => ({
        filename: attachment.filename,
        content: await loader(attachment, message.instanceId),
        contentType: 'application/pdf',
      })),
    );
  }
}

function ignoreConflict(error: unknown): void {
  if (!(error instanceof ConflictError)) throw error;
}
