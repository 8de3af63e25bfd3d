import type { Knex } from 'knex';
import type {
  CustomerConsent,
  MessageFailureCause,
  MessageListQuery,
  MessagePage,
  MessageStatus,
  MessageView,
} from '@crm/projections/messages';
import type { CustomerRecordPart } from '../customers/index.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { decodeNewestFirstCursor, newestFirstPage } from '../shared/list-query.ts';
import { reasonForStaff } from './message-reasons.ts';

interface MessageRow {
  id: string;
  kind: MessageView['kind'];
  channel: MessageView['channel'];
  to_address: string;
  subject: string;
  body: string;
  attachments: Array<{ filename: string }>;
  state: string;
  error: string | null;
  cause: MessageFailureCause | null;
  retryable: boolean;
  attempts: number;
  job_id: string | null;
  customer_id: string | null;
  service_request_id: string | null;
  created_at: Date;
  send_after: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  sent_at: Date | null;
  provider_message_id: string | null;
  updated_at: Date;
}

/** The read model's states under the API's four statuses. */
const STATES: Record<MessageStatus, string[]> = {
  queued: ['queued', 'sending'],
  sent: ['sent'],
  failed: ['failed'],
  'not-sent': ['not-sent', 'canceled'],
};

function statusOf(state: string): MessageStatus {
  for (const [status, states] of Object.entries(STATES)) if (states.includes(state)) return status as MessageStatus;
  return 'queued';
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** What staff read about a failed or unsent row (see message-reasons.ts); null while queued or once sent. */
function reasonOf(row: MessageRow): string | null {
  if (row.state === 'canceled') return row.error;
  if ((row.state !== 'failed' && row.state !== 'not-sent') || row.error === null) return null;
  // No cause: a text that tells none (see recorded-causes.ts), shown as recorded.
  if (!row.cause) return row.error;
  return reasonForStaff({ channel: row.channel, cause: row.cause, to: row.to_address, retrying: row.state === 'failed' && row.retryable });
}

/** Who reads the outbox: the technical detail of a failure is for the shop's admins only. */
export interface MessageReader {
  isAdmin: boolean;
}

export function toMessageView(row: MessageRow, reader: MessageReader): MessageView {
  return {
    id: row.id,
    kind: row.kind,
    channel: row.channel,
    to: row.to_address,
    subject: row.subject,
    body: row.body,
    attachments: row.attachments.map((a) => a.filename),
    status: statusOf(row.state),
    reason: reasonOf(row),
    detail: reader.isAdmin && row.state !== 'canceled' ? row.error : null,
    retrying: row.state === 'failed' && row.retryable,
    attempts: row.attempts,
    jobId: row.job_id,
    customerId: row.customer_id,
    serviceRequestId: row.service_request_id,
    queuedAt: iso(row.created_at)!,
    sendAfter: iso(row.send_after)!,
    lastAttemptAt: iso(row.last_attempt_at),
    nextAttemptAt: iso(row.next_attempt_at),
    sentAt: iso(row.sent_at),
    providerMessageId: row.provider_message_id,
    updatedAt: iso(row.updated_at)!,
  };
}

const COLUMNS = [
  'id',
  'kind',
  'channel',
  'to_address',
  'subject',
  'body',
  'attachments',
  'state',
  'error',
  'cause',
  'retryable',
  'attempts',
  'job_id',
  'customer_id',
  'service_request_id',
  'created_at',
  'send_after',
  'last_attempt_at',
  'next_attempt_at',
  'sent_at',
  'provider_message_id',
  'updated_at',
];

/** The outbox, newest first, by status, job or customer. */
export async function listMessages(knex: Knex, instanceId: string, query: MessageListQuery, reader: MessageReader): Promise<MessagePage> {
  return await withTenant(knex, instanceId, async (db) => {
    const matching = () => {
      const q = db.withSchema('rm').from('messages').where('instance_id', instanceId);
      if (query.status) q.whereIn('state', STATES[query.status]);
      if (query.jobId) q.andWhere('job_id', query.jobId);
      if (query.customerId) q.andWhere('customer_id', query.customerId);
      return q;
    };
    const page = await newestFirstPage<MessageRow>(db, matching, {
      columns: COLUMNS,
      limit: query.limit,
      cursor: query.cursor ? decodeNewestFirstCursor(query.cursor) : null,
    });
    return { items: page.rows.map((row) => toMessageView(row, reader)), nextCursor: page.nextCursor, total: page.total };
  });
}

export async function findMessage(knex: Knex, instanceId: string, messageId: string, reader: MessageReader): Promise<MessageView | null> {
  const row = (await withTenant(knex, instanceId, (db) =>
    db.withSchema('rm').from('messages').where({ instance_id: instanceId, id: messageId }).first(COLUMNS),
  )) as MessageRow | undefined;
  return row ? toMessageView(row, reader) : null;
}

interface ConsentRow {
  email_consent: boolean;
  sms_consent: boolean;
  email_changed: CustomerConsent['emailConsentChanged'];
  sms_changed: CustomerConsent['smsConsentChanged'];
}

/**
 * The customer's consent per channel as two columns of the customer record's own statement
 * (correlated subselects on this slice's table), so the record GET stays one round trip.
 * No consent recorded reads false: nothing is sent without it.
 */
export const consentOnCustomerRecord: CustomerRecordPart<{ emailConsent: boolean; smsConsent: boolean }> = {
  columns: (db, customer) => {
    const consent = (column: 'email_consent' | 'sms_consent') =>
      db.raw(`COALESCE((SELECT c.?? FROM rm.customer_consent c WHERE c.customer_id = ??.id AND c.instance_id = ??.instance_id), false)`, [
        column,
        customer,
        customer,
      ]);
    return { consent_email: consent('email_consent'), consent_sms: consent('sms_consent') };
  },
  fields: (row) => ({ emailConsent: row.consent_email === true, smsConsent: row.consent_sms === true }),
};

export async function findConsent(knex: Knex, instanceId: string, customerId: string): Promise<CustomerConsent> {
  const row = (await withTenant(knex, instanceId, (db) =>
    db.withSchema('rm').from('customer_consent').where({ instance_id: instanceId, customer_id: customerId }).first(),
  )) as ConsentRow | undefined;
  return {
    customerId,
    emailConsent: row?.email_consent ?? false,
    smsConsent: row?.sms_consent ?? false,
    emailConsentChanged: row?.email_changed ?? null,
    smsConsentChanged: row?.sms_changed ?? null,
  };
}
