import type { DomainEventOf, EventData } from '@crm/projections/events';
import { MESSAGE_MESSAGES, type MessageChannel, type MessageFailureCause, type MessageKind } from '@crm/projections/messages';
import type { Decider } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';

export const messageStream = (messageId: string) => `message-${messageId}`;

export type MessageEvent = DomainEventOf<
  | 'MessageQueued'
  | 'MessageSendAttempted'
  | 'MessageSent'
  | 'MessageFailed'
  | 'MessageNotSent'
  | 'MessageCanceled'
  | 'MessageRetryRequested'
>;

export type QueuedMessage = EventData<'MessageQueued'>;

/**
 * A message's life: queued → sending (an attempt recorded before the provider is called)
 * → sent | failed (retryable: back to the sender at its time; not: waits for a person) |
 * not-sent; canceled while still waiting. `attempt` counts every attempt ever made (each
 * attempt's idempotency key names it); `triesSinceRetry` the ones since a person's retry.
 */
export type MessageState =
  | { status: 'empty' }
  | {
      status: 'queued' | 'sending' | 'sent' | 'failed' | 'not-sent' | 'canceled';
      message: QueuedMessage;
      attempt: number;
      triesSinceRetry: number;
      retryable: boolean;
    };

export type MessageCommand =
  | { type: 'QueueMessage'; message: QueuedMessage }
  | { type: 'StartAttempt' }
  | { type: 'RecordSent'; attempt: number; providerMessageId: string; providerResponse: string }
  | { type: 'RecordFailure'; attempt: number; error: string; cause: MessageFailureCause; retryable: boolean; nextAttemptAt: string | null }
  | { type: 'RecordNotSent'; reason: string; cause: MessageFailureCause }
  | { type: 'CancelMessage'; reason: string }
  | { type: 'RequestRetry'; instanceId: string };

/** One attempt's idempotency key: the SMTP Message-ID and the log's name for it (never reused: attempts only count up). */
export function attemptKey(messageId: string, attempt: number): string {
  return `${messageId}.${attempt}`;
}

type Existing = Extract<MessageState, { message: QueuedMessage }>;

/** Whether the sender may take it now (queued, or failed and to be tried again). */
export function isSendable(state: MessageState): state is Existing {
  return state.status === 'queued' || (state.status === 'failed' && state.retryable);
}

export const messageDecider: Decider<MessageState, MessageCommand, MessageEvent> = {
  initialState: { status: 'empty' },
  evolve(state, event) {
    switch (event.type) {
      case 'MessageQueued':
        return {
          status: 'queued',
          message: event.data,
          attempt: state.status === 'empty' ? 0 : state.attempt,
          triesSinceRetry: 0,
          retryable: false,
        };
      case 'MessageSendAttempted':
        if (state.status === 'empty') return state;
        return { ...state, status: 'sending', attempt: event.data.attempt, triesSinceRetry: state.triesSinceRetry + 1 };
      case 'MessageSent':
        if (state.status === 'empty') return state;
        return { ...state, status: 'sent', retryable: false };
      case 'MessageFailed':
        if (state.status === 'empty') return state;
        return { ...state, status: 'failed', retryable: event.data.retryable };
      case 'MessageNotSent':
        if (state.status === 'empty') return state;
        return { ...state, status: 'not-sent', retryable: false };
      case 'MessageCanceled':
        if (state.status === 'empty') return state;
        return { ...state, status: 'canceled', retryable: false };
      case 'MessageRetryRequested':
        if (state.status === 'empty') return state;
        return { ...state, status: 'queued', retryable: false, triesSinceRetry: 0 };
      default: {
        const unexpected: never = event;
        return unexpected;
      }
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'QueueMessage':
        // Queuing is idempotent (a reactor replaying its batch queues the same id again);
        // a canceled message is queued afresh when what it was for comes back.
        if (state.status === 'empty' || state.status === 'canceled') return [{ type: 'MessageQueued', data: command.message }];
        return [];
      case 'StartAttempt': {
        if (!isSendable(state)) throw new ConflictError(`This message is ${state.status}, not waiting to be sent`);
        const attempt = state.attempt + 1;
        return [
          {
            type: 'MessageSendAttempted',
            data: { messageId: state.message.messageId, attempt, idempotencyKey: attemptKey(state.message.messageId, attempt) },
          },
        ];
      }
      case 'RecordSent':
        // Only the outcome of the attempt in flight counts: one recorded as interrupted meanwhile stays so.
        if (state.status !== 'sending' || state.attempt !== command.attempt) return [];
        return [
          {
            type: 'MessageSent',
            data: {
              messageId: state.message.messageId,
              attempt: command.attempt,
              providerMessageId: command.providerMessageId,
              providerResponse: command.providerResponse,
            },
          },
        ];
      case 'RecordFailure':
        if (state.status !== 'sending' || state.attempt !== command.attempt) return [];
        return [
          {
            type: 'MessageFailed',
            data: {
              messageId: state.message.messageId,
              attempt: command.attempt,
              error: command.error,
              retryable: command.retryable,
              nextAttemptAt: command.retryable ? command.nextAttemptAt : null,
              cause: command.cause,
            },
          },
        ];
      case 'RecordNotSent':
        if (!isSendable(state)) return [];
        return [{ type: 'MessageNotSent', data: { messageId: state.message.messageId, reason: command.reason, cause: command.cause } }];
      case 'CancelMessage':
        if (!isSendable(state)) return [];
        return [{ type: 'MessageCanceled', data: { messageId: state.message.messageId, reason: command.reason } }];
      case 'RequestRetry': {
        if (state.status === 'empty' || state.message.instanceId !== command.instanceId) throw new NotFoundError(MESSAGE_MESSAGES.notFound);
        if (state.status !== 'failed' && state.status !== 'not-sent') throw new ConflictError(MESSAGE_MESSAGES.notRetryable);
        return [{ type: 'MessageRetryRequested', data: { messageId: state.message.messageId } }];
      }
      default: {
        const unexpected: never = command;
        return unexpected;
      }
    }
  },
};

export type { MessageChannel, MessageKind };
