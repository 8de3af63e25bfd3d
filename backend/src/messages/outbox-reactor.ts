import type { Knex } from 'knex';
import type { StoredDomainEvent } from '@crm/projections/events';
import type { Actor, EventStore } from '@crm/projections/eventstore/port';
import { renderTemplate, renderTextMessage, type MessageChannel, type MessageKind } from '@crm/projections/messages';
import { startOfDayInZone, WORK_DONE_STAGES, type JobFields } from '@crm/projections/pipeline';
import { estimateLink } from '@crm/projections/repair-orders';
import { defineProjection, type Projection } from '@crm/projections/runtime/projection';
import { addDays, assertNever, dayInZone } from '@crm/projections/shared';
import { TransientError } from '@crm/projections/runtime/projector';
import { addToReaction } from '@crm/projections/runtime/reactions';
import type { Config } from '../config.ts';
import { executeCommand, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { MESSAGE_OUTBOX } from '../shared/reactions.ts';
import { e164, publicBaseUrl, unsubscribeUrl } from './links.ts';
import { consentOf, customerNow, jobAt, messageIdFor, shopOf, valuesFor, type Shop } from './message-context.ts';
import { messageDecider, messageStream, type QueuedMessage } from './message-decider.ts';

export const MESSAGES_ACTOR: Actor = { kind: 'system', id: 'messages', displayName: 'Messages' };

const COMPLETED = 'Completed';

/** Events older than this when the reactor reaches them are not messaged about. */
export const NEWS_MAX_AGE_MS = 24 * 3_600_000;

interface OutboxDeps {
  store: EventStore;
  knex: Knex;
  config: Config;
  now: () => Date;
}

/** An invoice attachment names the job and its stream's revision at the InvoiceIssued event. */
export const invoiceAttachmentId = (jobId: string, revision: number) => `${jobId}@${revision}`;

export function parseInvoiceAttachmentId(id: string): { jobId: string; revision: number } | null {
  const match = /^([0-9a-f-]{36})@(\d+)$/i.exec(id);
  return match ? { jobId: match[1]!.toLowerCase(), revision: Number(match[2]) } : null;
}

/** The instant reminders go out: the day before the appointment (in the shop's zone) at the shop's hour. */
export function reminderTime(appointment: string, timeZone: string, hour: number): Date {
  const before = addDays(dayInZone(new Date(appointment), timeZone), -1);
  const start = startOfDayInZone(before, timeZone);
  // From the day's start in the zone: on a daylight-saving change day the wall clock is an hour off at most.
  return new Date(start.getTime() + hour * 3_600_000);
}

/**
 * The outbox reactor: what happened becomes queued messages (MessageQueued, causationId =
 * the event), which the sender delivers. A service request's e-mail goes to the address
 * it gave; a job's messages go to its customer on each channel the customer consented to
 * and has an address for. An appointment booked or moved gets a confirmation now and a
 * reminder the day before at the shop's hour; moving or canceling it, or the job reaching
 * Completed, Invoiced or Paid, cancels the reminder still waiting, and the job coming back
 * (reopened, restored, taken back from a done stage) queues it again while it is still
 * ahead. A job reaching Completed
 * gets "ready for pickup". An estimate sent gets its
 * approval link; an invoice issued (or a new revision of it) goes by e-mail with its PDF.
 *
 * Message ids come from what they are for (messageIdFor), and queuing an id that exists
 * records nothing: a batch replayed after a crash queues nothing twice.
 */
export function messageOutboxReactor(deps: OutboxDeps): Projection {
  const contextOf = (event: StoredDomainEvent, instanceId: string): InstanceContext => ({
    instanceId,
    actor: MESSAGES_ACTOR,
    correlationId: event.metadata.correlationId,
    causationId: event.id,
    now: deps.now(),
  });

  const command = async (ctx: InstanceContext, messageId: string, run: Parameters<typeof executeCommand>[0]['command']) => {
    try {
      return await executeCommand({
        store: deps.store,
        streamId: messageStream(messageId),
        decider: messageDecider,
        command: run as never,
        ctx,
      });
    } catch (error) {
      if (error instanceof ConflictError) throw new TransientError(`message ${messageId}: ${error.message}`);
      throw error;
    }
  };

  const queue = async (ctx: InstanceContext, message: QueuedMessage): Promise<number> => {
    const result = await command(ctx, message.messageId, { type: 'QueueMessage', message });
    return result.events.length > 0 ? 1 : 0;
  };

  const cancel = async (ctx: InstanceContext, messageId: string, reason: string) => {
    await command(ctx, messageId, { type: 'CancelMessage', reason });
  };

  const reminderId = (jobId: string, appointment: string, channel: MessageChannel) =>
    messageIdFor(`reminder:${jobId}:${appointment}:${channel}`);

  /** A job's customer's addresses on the channels it may be messaged on. */
  const recipients = async (job: JobFields) => {
    if (!job.customerId) return null;
    const now = await customerNow(deps.store, job.customerId);
    if (!now) return null;
    const { customerId, fields: customer } = now;
    const consent = await consentOf(deps.store, customerId);
    const to: Array<{ channel: MessageChannel; address: string }> = [];
    if (consent.email && customer.email) to.push({ channel: 'email', address: customer.email });
    const phone = e164(customer.phone);
    if (consent.sms && phone) to.push({ channel: 'sms', address: phone });
    return { customerId, customer, to };
  };

  /** Queues one kind for a job on each channel; `idFor` names each message. */
  const queueForJob = async (
    event: StoredDomainEvent,
    ctx: InstanceContext,
    jobId: string,
    job: JobFields,
    kind: MessageKind,
    options: {
      idFor: (channel: MessageChannel) => string;
      sendAfter: Date;
      shop?: Shop;
      link?: string;
      /** Files that go with the e-mail (a text carries none). */
      attachments?: QueuedMessage['attachments'];
    },
  ): Promise<number> => {
    const who = await recipients(job);
    if (!who || who.to.length === 0) return 0;
    const shop = options.shop ?? (await shopOf(deps, ctx.instanceId));
    const vehicle = job.makeModel || who.customer.vehicles.split(',')[0]?.trim() || '';
    const values = valuesFor(shop, {
      customerName: who.customer.name || job.name,
      vehicle,
      jobNumber: job.jobNumber,
      appointment: job.appointment,
      link: options.link,
    });
    const template = shop.messaging.templates[kind];
    let queued = 0;
    for (const { channel, address } of who.to) {
      const body =
        channel === 'email'
          ? `${renderTemplate(template.emailBody, values)}\n\n--\nTo stop e-mails from ${shop.name}: ${unsubscribeUrl(deps.config, { instanceId: ctx.instanceId, customerId: who.customerId, channel: 'email' })}`
          : renderTextMessage(template.smsBody, values);
      queued += await queue(ctx, {
        messageId: options.idFor(channel),
        instanceId: ctx.instanceId,
        kind,
        channel,
        to: address,
        subject: channel === 'email' ? renderTemplate(template.subject, values) : '',
        body,
        attachments: channel === 'email' ? (options.attachments ?? []) : [],
        jobId,
        customerId: who.customerId,
        serviceRequestId: null,
        triggerEventId: event.id,
        sendAfter: options.sendAfter.toISOString(),
      });
    }
    return queued;
  };

  /**
   * The reminder the day before at the shop's hour, when that is still ahead and the job is
   * to be worked on. Queued under one id per job, appointment and channel: a reminder
   * canceled meanwhile (the job was done, canceled or deleted, the appointment moved away)
   * is queued afresh when the job comes back to that appointment; one still waiting stays.
   */
  const remind = async (event: StoredDomainEvent, ctx: InstanceContext, jobId: string, job: JobFields, shop?: Shop) => {
    if (!job.appointment || job.stage === 'Canceled' || WORK_DONE_STAGES.has(job.stage)) return 0;
    const theShop = shop ?? (await shopOf(deps, ctx.instanceId));
    const remindAt = reminderTime(job.appointment, theShop.timeZone, theShop.messaging.settings.reminderHour);
    if (remindAt <= deps.now()) return 0;
    const appointment = job.appointment;
    return await queueForJob(event, ctx, jobId, job, 'appointment-reminder', {
      idFor: (channel) => reminderId(jobId, appointment, channel),
      sendAfter: remindAt,
      shop: theShop,
    });
  };

  /** Confirmation now, reminder the day before (when that is still ahead). */
  const booked = async (event: StoredDomainEvent, ctx: InstanceContext, jobId: string, job: JobFields) => {
    const now = deps.now();
    if (!job.appointment || new Date(job.appointment) <= now || job.stage === 'Canceled') return 0;
    const shop = await shopOf(deps, ctx.instanceId);
    const queued = await queueForJob(event, ctx, jobId, job, 'appointment-confirmation', {
      idFor: (channel) => messageIdFor(`${event.id}:appointment-confirmation:${channel}`),
      sendAfter: now,
      shop,
    });
    return queued + (await remind(event, ctx, jobId, job, shop));
  };

  const cancelReminders = async (ctx: InstanceContext, jobId: string, appointment: string | null, reason: string) => {
    if (!appointment) return;
    for (const channel of ['email', 'sms'] as const) await cancel(ctx, reminderId(jobId, appointment, channel), reason);
  };

  return defineProjection({
    name: 'message-outbox',
    eventTypes: [
      'ServiceRequestSubmitted',
      'JobCreated',
      'JobRescheduled',
      'JobStageChanged',
      'JobCanceled',
      'JobReopened',
      'JobDeleted',
      'JobRestored',
      'EstimateSent',
      'InvoiceIssued',
    ],
    takes: (event) =>
      (event.type !== 'JobCreated' || event.data.appointment !== null) &&
      (event.type !== 'JobStageChanged' || WORK_DONE_STAGES.has(event.data.to) || WORK_DONE_STAGES.has(event.data.from)) &&
      (event.type !== 'ServiceRequestSubmitted' || event.data.contactEmail !== ''),
    async apply(event, { trx }) {
      const instanceId = event.metadata.instanceId;
      if (!instanceId) return;
      // History, not news: a log replayed from its start (a first deployment, an import)
      // must not message customers about what happened long ago.
      if (deps.now().getTime() - event.recordedAt.getTime() > NEWS_MAX_AGE_MS) return;
      const ctx = contextOf(event, instanceId);
      let affected = 0;
      try {
        switch (event.type) {
          case 'ServiceRequestSubmitted': {
            const d = event.data;
            const shop = await shopOf(deps, instanceId);
            const values = valuesFor(shop, { customerName: d.customerName, vehicle: d.vehicleType });
            const template = shop.messaging.templates['service-request-received'];
            // The requester gave this address to be answered at: the reply needs no other consent.
            affected += await queue(ctx, {
              messageId: messageIdFor(`${event.id}:service-request-received:email`),
              instanceId,
              kind: 'service-request-received',
              channel: 'email',
              to: d.contactEmail,
              subject: renderTemplate(template.subject, values),
              body: renderTemplate(template.emailBody, values),
              attachments: [],
              jobId: null,
              customerId: null,
              serviceRequestId: d.serviceRequestId,
              triggerEventId: event.id,
              sendAfter: deps.now().toISOString(),
            });
            break;
          }
          case 'JobCreated': {
            const job = await jobAt(deps.store, event.data.jobId, event.revision);
            if (job) affected += await booked(event, ctx, event.data.jobId, job);
            break;
          }
          case 'JobRescheduled': {
            const d = event.data;
            if (d.from === d.to) break;
            await cancelReminders(ctx, d.jobId, d.from, 'The appointment moved');
            const job = await jobAt(deps.store, d.jobId, event.revision);
            if (job) affected += await booked(event, ctx, d.jobId, job);
            break;
          }
          case 'JobCanceled':
          case 'JobDeleted': {
            const before = await jobAt(deps.store, event.data.jobId, event.revision - 1);
            await cancelReminders(
              ctx,
              event.data.jobId,
              before?.appointment ?? null,
              event.type === 'JobCanceled' ? 'The job was canceled' : 'The job was deleted',
            );
            break;
          }
          case 'JobReopened':
          case 'JobRestored': {
            // Back to be worked on: the reminder its cancellation or deletion canceled is due again.
            const job = await jobAt(deps.store, event.data.jobId, event.revision);
            if (job) affected += await remind(event, ctx, event.data.jobId, job);
            break;
          }
          case 'JobStageChanged': {
            const job = await jobAt(deps.store, event.data.jobId, event.revision);
            if (!WORK_DONE_STAGES.has(event.data.to)) {
              // Taken back from Completed (or later) before its appointment: its reminder is due again.
              if (job) affected += await remind(event, ctx, event.data.jobId, job);
              break;
            }
            // Done before its appointment (or on the day): the reminder of it is not sent.
            await cancelReminders(ctx, event.data.jobId, job?.appointment ?? null, 'The work was done');
            if (job && event.data.to === COMPLETED)
              affected += await queueForJob(event, ctx, event.data.jobId, job, 'ready-for-pickup', {
                idFor: (channel) => messageIdFor(`${event.id}:ready-for-pickup:${channel}`),
                sendAfter: deps.now(),
              });
            break;
          }
          case 'EstimateSent': {
            const job = await jobAt(deps.store, event.data.jobId, event.revision);
            if (job)
              affected += await queueForJob(event, ctx, event.data.jobId, job, 'estimate-sent', {
                idFor: (channel) => messageIdFor(`${event.id}:estimate-sent:${channel}`),
                sendAfter: deps.now(),
                link: `${publicBaseUrl(deps.config)}${estimateLink(event.data.token)}`,
              });
            break;
          }
          case 'InvoiceIssued': {
            const d = event.data;
            const job = await jobAt(deps.store, d.jobId, event.revision);
            const suffix = d.revision > 1 ? `-r${d.revision}` : '';
            if (job)
              affected += await queueForJob(event, ctx, d.jobId, job, 'invoice-issued', {
                idFor: (channel) => messageIdFor(`${event.id}:invoice-issued:${channel}`),
                sendAfter: deps.now(),
                // The PDF is drawn when sent, from the job as it stood at this event: what was issued.
                attachments: [
                  {
                    kind: 'invoice-pdf',
                    invoiceId: invoiceAttachmentId(d.jobId, event.revision),
                    filename: `invoice-${d.invoiceNumber}${suffix}.pdf`,
                  },
                ],
              });
            break;
          }
          default:
            return assertNever(event, 'event');
        }
      } catch (error) {
        // The shop is gone (deleted meanwhile): nothing to send for it.
        if (error instanceof NotFoundError) return;
        throw error;
      }
      await addToReaction(trx, MESSAGE_OUTBOX, event.id, affected, null);
    },
  });
}
