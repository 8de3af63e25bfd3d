import type { StoredDomainEvent } from '@crm/projections/events';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import { RECORD_MESSAGES, type Reverter } from '@crm/projections/records';
import { isRepairOrderJobEvent } from '@crm/projections/repair-orders';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { jobAsOf, jobStream, type JobTarget } from '../pipeline/index.ts';
import { loadAggregate, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { assertMayRevert, assertNoLaterChange } from '../shared/reverts.ts';
import { repairOrderDecider, type RepairOrderEvent } from './repair-order-decider.ts';
import { answerOf, newPaymentId, runRepairOrderCommand } from './repair-order-service.ts';
import { loadShopSettings, ratesOf } from './shop-settings.ts';

/**
 * Undo of a line or payment from a job's history, with the rules every revert follows (who
 * may, and a later change of the same line or payment refuses it). The compensating events
 * are decided by the repair-order decider (`RevertChange`).
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

/**
 * Reverts one repair-order change of a job and answers the job with its repair order; null
 * when `eventId` is no repair-order event of the job's stream (the job's own changes are
 * reverted by the pipeline slice).
 */
export async function revertRepairOrderChange(
  deps: AppDeps,
  target: JobTarget,
  eventId: string,
  reader: Reverter,
  ctx: InstanceContext,
  expectedRevision?: number,
) {
  if (!isUuid(target.jobId)) throw new NotFoundError(JOB_MESSAGES.notFound);
  const loaded = await loadAggregate(deps.store, jobStream(target.jobId), repairOrderDecider);
  const job = loaded.state.job;
  if ((job.status !== 'open' && job.status !== 'canceled') || job.instanceId !== target.instanceId) return null;
  const events = loaded.events.filter((event): event is StoredOrderEvent => isRepairOrderJobEvent(event));
  const index = events.findIndex((event) => event.id === eventId);
  if (index < 0) {
    // A job with lines takes its quote from their total: its quote changes are undone with the lines.
    const own = loaded.events.find((event) => event.id === eventId);
    const quoteChange =
      own?.type === 'JobUpdated' && (own.data as { changes: Array<{ field: string }> }).changes.some((change) => change.field === 'quote');
    if (quoteChange && loaded.state.order.lines.length > 0) throw new ConflictError(REVERT_MESSAGES.quoteFollowsLines);
    return null;
  }
  if (expectedRevision !== undefined && loaded.revision !== expectedRevision) {
    throw new StaleRecordError('job', await jobAsOf(deps.store, target, null));
  }
  const event = events[index]!;
  assertMayRevert(reader, event, deps.now());
  const later = events.slice(index + 1);
  // The payment's own undo, when it has one, is what "a later change" of it means (undo the undo).
  const fields = event.type === 'PaymentRecorded' ? [`payment:${event.id}`] : touched(event);
  assertNoLaterChange(later, fields, touched, labelOf);
  const invoice = later.find((candidate) => candidate.type === 'InvoiceIssued');
  const shop = ratesOf((await loadShopSettings(deps, target.instanceId)).settings);
  const result = await runRepairOrderCommand(
    deps,
    target,
    {
      type: 'RevertChange',
      instanceId: target.instanceId,
      target: event,
      invoicedSince: invoice?.type === 'InvoiceIssued' ? invoice.data.invoiceNumber : null,
      shop,
      refundId: newPaymentId(),
      now: deps.now().toISOString(),
    },
    ctx,
    loaded.revision ?? undefined,
  );
  if (result.events.length === 0) throw new ConflictError(RECORD_MESSAGES.nothingToRevert);
  return answerOf(deps, target, result);
}
