import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { readableEvents, type StoredDomainEvent } from '@crm/projections/events';
import type { EventStore } from '@crm/projections/eventstore/port';
import type { CustomerFields } from '@crm/projections/customers';
import { applyJobEvent, isJobStreamEvent, type JobFields } from '@crm/projections/pipeline';
import { formatAppointment, type MessageKind, type MessageValues } from '@crm/projections/messages';
import { customerStream } from '../customers/index.ts';
import { jobStream } from '../pipeline/index.ts';
import { getInstance } from '../platform/index.ts';
import { loadShopSettings } from '../repair-orders/index.ts';
import { assertNever } from '@crm/projections/shared';
import { loadAggregate } from '../shared/commands.ts';
import { consentDecider, consentStream, type ConsentState } from './consent-decider.ts';
import { messagingDecider, messagingStream, type MessagingState } from './messaging-decider.ts';

/**
 * What a message is made from, read from the event log itself (never from read models that
 * may trail the reactor): the job and customer as they are, the customer's consent, the
 * shop's templates and settings; the shop's name and zone from its record.
 */

/** A message id from what it is for: the reactor replaying an event queues the same ids (and so nothing twice). */
export function messageIdFor(seed: string): string {
  const hex = createHash('sha256').update(`message:${seed}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

async function readParsed(store: EventStore, streamId: string): Promise<StoredDomainEvent[]> {
  return readableEvents(await store.readStream(streamId)).events;
}

/** The job's fields after its events up to `uptoRevision` (all when absent); null when it does not exist (then). */
export async function jobAt(store: EventStore, jobId: string, uptoRevision?: number): Promise<JobFields | null> {
  let fields: JobFields | null = null;
  for (const event of await readParsed(store, jobStream(jobId))) {
    if (uptoRevision !== undefined && event.revision > uptoRevision) break;
    if (isJobStreamEvent(event)) fields = applyJobEvent(fields, event);
  }
  return fields;
}

const CUSTOMER_RECORD_EVENT_TYPES = [
  'CustomerCreated',
  'CustomerRestored',
  'CustomerUpdated',
  'CustomerDeleted',
  'CustomerMerged',
  'CustomerMergeUndone',
] as const;
type CustomerRecordEvent = Extract<StoredDomainEvent, { type: (typeof CUSTOMER_RECORD_EVENT_TYPES)[number] }>;
const isCustomerRecordEvent = (event: StoredDomainEvent): event is CustomerRecordEvent =>
  (CUSTOMER_RECORD_EVENT_TYPES as readonly string[]).includes(event.type);

/** A customer as messages see it: the one that stands (a merged-away customer's survivor) and its fields. */
export interface CustomerNow {
  customerId: string;
  fields: CustomerFields;
}

/** A merge chain is short; the bound only guards against a cycle in a damaged log. */
const MAX_MERGE_HOPS = 10;

/** One customer stream folded: its fields, or where a standing merge took it. */
async function customerRecord(
  store: EventStore,
  customerId: string,
): Promise<{ fields: CustomerFields | null; mergedInto: string | null }> {
  let fields: CustomerFields | null = null;
  let mergedInto: string | null = null;
  for (const event of await readParsed(store, customerStream(customerId))) {
    if (!isCustomerRecordEvent(event)) continue;
    switch (event.type) {
      case 'CustomerCreated':
      case 'CustomerRestored': {
        const d = event.data;
        fields = {
          name: d.name,
          phone: d.phone,
          email: d.email,
          address: d.address,
          vehicles: d.vehicles,
          pastAppointments: d.pastAppointments,
          invoices: d.invoices,
          notes: d.notes,
        };
        break;
      }
      case 'CustomerUpdated':
        if (fields) {
          const next: CustomerFields = { ...fields };
          for (const change of event.data.changes) next[change.field] = change.newValue;
          fields = next;
        }
        break;
      case 'CustomerDeleted':
        fields = null;
        break;
      case 'CustomerMerged':
        // Only the side that went away follows the merge; the survivor keeps its own record.
        if (event.data.role === 'from') mergedInto = event.data.intoId;
        break;
      case 'CustomerMergeUndone':
        if (event.data.role === 'from') mergedInto = null;
        break;
      default:
        assertNever(event, 'event');
    }
  }
  return { fields, mergedInto };
}

/**
 * The live customer messages go to; null for one deleted or unknown. A customer merged into
 * another is that other one: its messages (a job left on it, a reminder decided before the
 * merge) reach the survivor's contact, under the survivor's consent.
 */
export async function customerNow(store: EventStore, customerId: string): Promise<CustomerNow | null> {
  let id = customerId;
  for (let hop = 0; hop <= MAX_MERGE_HOPS; hop++) {
    const record = await customerRecord(store, id);
    if (record.mergedInto === null) return record.fields ? { customerId: id, fields: record.fields } : null;
    id = record.mergedInto;
  }
  return null;
}

export async function consentOf(store: EventStore, customerId: string): Promise<ConsentState> {
  return (await loadAggregate(store, consentStream(customerId), consentDecider)).state;
}

export async function messagingOf(store: EventStore, instanceId: string): Promise<MessagingState> {
  return (await loadAggregate(store, messagingStream(instanceId), messagingDecider)).state;
}

export interface Shop {
  name: string;
  /** The phone messages give: the messaging settings' own, else the one on the shop's documents. */
  phone: string;
  timeZone: string;
  messaging: MessagingState;
}

/**
 * The shop as its messages name it. The name and phone on its estimates and invoices (the
 * shop settings) are what its customers know, so messages use them too; a phone set for
 * messages alone wins, and without shop settings the name is the CRM's display name.
 */
export async function shopOf(deps: { knex: Knex; store: EventStore }, instanceId: string): Promise<Shop> {
  const [instance, messaging, documents] = await Promise.all([
    getInstance(deps.knex, instanceId),
    messagingOf(deps.store, instanceId),
    loadShopSettings(deps, instanceId),
  ]);
  return {
    name: documents.settings.shopName.trim() || instance.displayName || instance.name,
    phone: messaging.settings.shopPhone.trim() || documents.settings.phone.trim(),
    timeZone: instance.timeZone,
    messaging,
  };
}

/** The placeholders' values for one message. */
export function valuesFor(
  shop: Shop,
  parts: { customerName: string; vehicle: string; jobNumber?: string; appointment?: string | null; link?: string },
): MessageValues {
  return {
    'customer.name': parts.customerName || 'customer',
    vehicle: parts.vehicle || 'vehicle',
    'job.number': parts.jobNumber ?? '',
    appointment: parts.appointment ? formatAppointment(parts.appointment, shop.timeZone) : '',
    'shop.name': shop.name,
    'shop.phone': shop.phone,
    link: parts.link ?? '',
  };
}

export type { MessageKind };
