import type { StoredDomainEvent } from '@crm/projections/events';
import { isJobStreamEvent, JOB_FIELD_LABELS, JOB_MESSAGES, type JobFields } from '@crm/projections/pipeline';
import { RECORD_MESSAGES, type Reverter, type RevertOffer } from '@crm/projections/records';
import { isRepairOrderJobEvent, quoteFollowsLines, type JobDetail } from '@crm/projections/repair-orders';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import {
  jobAsOf,
  jobDecider,
  jobFieldsSetBy,
  jobStream,
  jobValuesBefore,
  revertJobChange,
  type JobEvent,
  type JobState,
  type JobTarget,
  type StoredJobEvent,
} from '../pipeline/index.ts';
import { loadAggregate, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { assertMayRevert, assertNoLaterChange, NotRevertibleError, revertOffer } from '../shared/reverts.ts';
import {
  REPAIR_ORDER_MESSAGES,
  repairOrderDecider,
  type RepairOrderCommand,
  type RepairOrderEvent,
  type RepairOrderState,
  type ShopRates,
} from './repair-order-decider.ts';
import { answerOf, newPaymentId, runRepairOrderCommand } from './repair-order-service.ts';
import { loadShopSettings, ratesOf } from './shop-settings.ts';

/**
 * Undo from a job's history, of the job's own fields and of its repair order's lines and
 * payments: one rule says whether a change can be reverted, for the history's button and for
 * the command. The compensating events of a line or payment are decided by the repair-order
 * decider (`RevertChange`); those of the job's fields by the job's own save.
 */

type StoredOrderEvent = StoredDomainEvent & RepairOrderEvent;

/** What an event touched, for "a later change refuses the undo": its line (and a discount's line), its payment. */
function touched(event: StoredOrderEvent): string[] {
  switch (event.type) {
    case 'LineAdded':
    case 'LineRemoved': {
      const line = event.data.line;
      return line.appliesTo ? [`line:${line.id}`, `line:${line.appliesTo}`] : [`line:${line.id}`];
    }
    case 'LineChanged':
      return [`line:${event.data.lineId}`];
    case 'PaymentRecorded':
      return [`payment:${event.id}`];
    case 'RefundRecorded':
      // An undo of a payment names it; a refund of money in general touches no one payment.
      return event.data.revertOf ? [`payment:${event.data.revertOf}`] : [];
    case 'LinesReordered':
    case 'EstimateSent':
    case 'EstimateRevoked':
    case 'EstimateApproved':
    case 'EstimateDeclined':
    case 'InvoiceIssued':
      return [];
    default: {
      const unexpected: never = event;
      throw new Error(`Unhandled event ${JSON.stringify(unexpected)}`);
    }
  }
}

export const REVERT_MESSAGES = {
  quoteFollowsLines: "This job's quote is its lines' total: undo the line change instead",
} as const;

const LABELS: Record<string, string> = { line: 'this line', payment: 'this payment' };
const labelOf = (key: string) => LABELS[key.split(':')[0] ?? ''] ?? key;

/** The rates a revert's decision is checked with: they set amounts, never whether it is refused. */
const NO_RATES = { laborRate: 0, partsTaxRate: 0, laborTaxRate: 0 };

/** A job's stream as read once: its readable events and the job with its repair order after them, in the reader's instance. */
export interface JobStreamRead {
  instanceId: string;
  events: StoredDomainEvent[];
  state: RepairOrderState;
}

export function jobStreamRead(instanceId: string, events: StoredDomainEvent[]): JobStreamRead {
  const state = events.reduce((s, e) => repairOrderDecider.evolve(s, e as RepairOrderEvent), repairOrderDecider.initialState);
  return { instanceId, events, state };
}

/**
 * The one rule of whether a change in a job's history can be reverted now: the history offers
 * "Revert this change" exactly where this passes, and the revert command refuses with what it
 * throws. A creation, deletion, restore, estimate, invoice or refund is no change of fields; the
 * reader must be its author within 24 hours, or an admin; a job with repair-order lines takes
 * its quote from their total; a later change of the same fields, line or payment stands in the
 * way (unless a later revert undid it); and the decision itself must record something (a line
 * frozen by an invoice, a line gone, a payment already refunded refuse it there).
 */
export function assertJobChangeRevertible(read: JobStreamRead, eventId: string, reader: Reverter, now: Date): void {
  const { events, state } = read;
  const event = events.find((candidate) => candidate.id === eventId);
  if (event && isRepairOrderJobEvent(event)) return assertOrderChangeRevertible(read, event as StoredOrderEvent, reader, now);
  if (!event || !isJobStreamEvent(event)) throw new NotFoundError(RECORD_MESSAGES.changeNotFound);
  const before = jobValuesBefore(event);
  if (!before) throw new NotRevertibleError(RECORD_MESSAGES.notRevertible);
  assertMayRevert(reader, event, now);
  if ('quote' in before && quoteFollowsLines(state.order)) throw new ConflictError(REVERT_MESSAGES.quoteFollowsLines);
  const jobEvents = events.filter((candidate): candidate is StoredJobEvent => isJobStreamEvent(candidate));
  const later = jobEvents.slice(jobEvents.indexOf(event) + 1);
  assertNoLaterChange(later, jobFieldsSetBy(event), jobFieldsSetBy, (field) => JOB_FIELD_LABELS[field as keyof JobFields]);
  const decided = jobDecider.decide({ type: 'UpdateJob', instanceId: read.instanceId, changes: before, revertOf: event.id }, state.job);
  if (decided.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
}

/** The repair-order changes a revert undoes: a line's (the opposite line change) and a payment (a refund of it). */
const REVERTIBLE_ORDER_EVENTS: ReadonlySet<string> = new Set(['LineAdded', 'LineChanged', 'LineRemoved', 'PaymentRecorded']);

function assertOrderChangeRevertible(read: JobStreamRead, event: StoredOrderEvent, reader: Reverter, now: Date): void {
  if (!REVERTIBLE_ORDER_EVENTS.has(event.type)) throw new NotRevertibleError(REPAIR_ORDER_MESSAGES.undoNotRevertible);
  assertMayRevert(reader, event, now);
  const orderEvents = read.events.filter((candidate): candidate is StoredOrderEvent => isRepairOrderJobEvent(candidate));
  const later = orderEvents.slice(orderEvents.indexOf(event) + 1);
  // The payment's own undo, when it has one, is what "a later change" of it means (undo the undo).
  const fields = event.type === 'PaymentRecorded' ? [`payment:${event.id}`] : touched(event);
  assertNoLaterChange(later, fields, touched, labelOf);
  const decided = repairOrderDecider.decide(revertCommand(read, event, NO_RATES, now), read.state);
  if (decided.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
}

function revertCommand(
  read: JobStreamRead,
  event: StoredOrderEvent,
  shop: ShopRates,
  now: Date,
): Extract<RepairOrderCommand, { type: 'RevertChange' }> {
  const invoice = read.events.slice(read.events.indexOf(event) + 1).find((candidate) => candidate.type === 'InvoiceIssued');
  return {
    type: 'RevertChange',
    instanceId: read.instanceId,
    target: event,
    invoicedSince: invoice?.type === 'InvoiceIssued' ? invoice.data.invoiceNumber : null,
    shop,
    refundId: newPaymentId(),
    now: now.toISOString(),
  };
}

/** The history's offer to revert this change of the job, by the rule above. */
export function jobChangeOffer(read: JobStreamRead, eventId: string, reader: Reverter, now: Date): RevertOffer {
  return revertOffer(() => assertJobChangeRevertible(read, eventId, reader, now));
}

/**
 * Reverts one change from a job's history, by the rule above on the stream as read here, and
 * answers with the job (with its repair order when the change was a line or payment).
 * `expectedRevision` (If-Match): the revision the screen showed; without it, the revision read
 * here guards the append, so a change racing the revert makes it a 409 instead of being undone
 * unseen.
 */
export async function revertJobHistoryChange(
  deps: AppDeps,
  target: JobTarget,
  eventId: string,
  reader: Reverter,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<{ order: JobDetail } | { job: CommandResult<JobState, JobEvent> }> {
  if (!isUuid(target.jobId)) throw new NotFoundError(JOB_MESSAGES.notFound);
  const loaded = await loadAggregate(deps.store, jobStream(target.jobId), repairOrderDecider);
  const job = loaded.state.job;
  if ((job.status !== 'open' && job.status !== 'canceled') || job.instanceId !== target.instanceId) {
    throw new NotFoundError(JOB_MESSAGES.notFound);
  }
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw new StaleRecordError('job', await jobAsOf(deps.store, target, null));
  }
  const read = { instanceId: target.instanceId, events: loaded.events, state: loaded.state };
  assertJobChangeRevertible(read, eventId, reader, deps.now());
  const event = loaded.events.find((candidate) => candidate.id === eventId)!;
  const revision = loaded.revision ?? undefined;
  if (!isRepairOrderJobEvent(event)) return { job: await revertJobChange(deps, target, event as StoredJobEvent, ctx, revision) };
  const shop = ratesOf((await loadShopSettings(deps, target.instanceId)).settings);
  const result = await runRepairOrderCommand(deps, target, revertCommand(read, event as StoredOrderEvent, shop, deps.now()), ctx, revision);
  if (result.events.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
  return { order: await answerOf(deps, target, result) };
}
