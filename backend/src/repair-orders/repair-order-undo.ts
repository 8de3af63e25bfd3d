import { paidOf, REPAIR_ORDER_LIMITS, type TaxRates } from '@crm/projections/repair-orders';
import { assertNever } from '@crm/projections/shared';
import { ConflictError } from '../shared/errors.ts';
import type { RepairOrderDecisionEvent as Event, RepairOrderCommand, RepairOrderEvent, RepairOrderState } from './repair-order-commands.ts';
import { dollars, existing, fold, labelOf, lineChangeEvents, open, stageFollows } from './repair-order-job.ts';
import { REPAIR_ORDER_MESSAGES } from './repair-order-messages.ts';

/**
 * The compensating events of an undo. A line change comes back as the opposite line event
 * (an addition as a removal, a change as the change back, a removal as the line back at its
 * place); a payment as a refund of it, so the day it was taken and the day it was undone both
 * stay true in the takings. A change an invoice froze is refused: the invoice's lines are the
 * record of what was billed.
 */
export function revertChange(command: Extract<RepairOrderCommand, { type: 'RevertChange' }>, state: RepairOrderState): Event[] {
  const { order } = state;
  const target = command.target;
  const rates: TaxRates = { partsTaxRate: command.shop.partsTaxRate, laborTaxRate: command.shop.laborTaxRate };
  const lineEvent = target.type === 'LineAdded' || target.type === 'LineChanged' || target.type === 'LineRemoved';
  if (lineEvent && command.invoicedSince !== null) throw new ConflictError(REPAIR_ORDER_MESSAGES.undoFrozen(command.invoicedSince));
  switch (target.type) {
    case 'LineAdded': {
      const job = open(state, command.instanceId);
      const position = order.lines.findIndex((line) => line.id === target.data.line.id);
      if (position < 0) throw new ConflictError(REPAIR_ORDER_MESSAGES.undoLineGone);
      const line = order.lines[position]!;
      const removed: RepairOrderEvent = { type: 'LineRemoved', data: { ...labelOf(job), line, position, ...rates, revertOf: target.id } };
      return lineChangeEvents(job, order, [removed], line.kind);
    }
    case 'LineChanged': {
      const job = open(state, command.instanceId);
      const line = order.lines.find((candidate) => candidate.id === target.data.lineId);
      if (!line) throw new ConflictError(REPAIR_ORDER_MESSAGES.undoLineGone);
      const changes = target.data.changes
        .map((change) => ({ field: change.field, oldValue: line[change.field], newValue: change.oldValue }))
        .filter((change) => change.oldValue !== change.newValue);
      if (changes.length === 0) return [];
      const after = { ...line } as Record<string, unknown>;
      for (const change of changes) after[change.field] = change.newValue;
      const data = {
        ...labelOf(job),
        lineId: line.id,
        kind: line.kind,
        description: String(after.description ?? ''),
        changes,
        ...rates,
        revertOf: target.id,
      };
      return lineChangeEvents(job, order, [{ type: 'LineChanged', data }], line.kind);
    }
    case 'LineRemoved': {
      const job = open(state, command.instanceId);
      const line = target.data.line;
      if (order.lines.some((candidate) => candidate.id === line.id)) throw new ConflictError(REPAIR_ORDER_MESSAGES.undoLineBack);
      if (order.lines.length >= REPAIR_ORDER_LIMITS.linesMax) throw new ConflictError(REPAIR_ORDER_MESSAGES.tooManyLines);
      if (line.kind === 'discount' && line.appliesTo !== null && !order.lines.some((candidate) => candidate.id === line.appliesTo))
        throw new ConflictError(REPAIR_ORDER_MESSAGES.undoDiscountTarget);
      const position = Math.min(target.data.position, order.lines.length);
      return lineChangeEvents(
        job,
        order,
        [{ type: 'LineAdded', data: { ...labelOf(job), line, position, ...rates, revertOf: target.id } }],
        line.kind,
      );
    }
    case 'PaymentRecorded': {
      const job = existing(state, command.instanceId);
      const paid = paidOf(order);
      if (target.data.amount > paid) throw new ConflictError(REPAIR_ORDER_MESSAGES.undoPaymentRefunded(dollars(paid)));
      const refund: RepairOrderEvent = {
        type: 'RefundRecorded',
        data: {
          ...labelOf(job),
          paymentId: command.refundId,
          amount: target.data.amount,
          method: target.data.method,
          reference: target.data.reference,
          reason: REPAIR_ORDER_MESSAGES.paymentUndoReason,
          receivedAt: command.now,
          revertOf: target.id,
        },
      };
      return [refund, ...stageFollows(job, fold(order, [refund]))];
    }
    case 'LinesReordered':
    case 'EstimateSent':
    case 'EstimateRevoked':
    case 'EstimateApproved':
    case 'EstimateDeclined':
    case 'InvoiceIssued':
    case 'RefundRecorded':
      throw new ConflictError(REPAIR_ORDER_MESSAGES.undoNotRevertible);
    default:
      return assertNever(target, 'change to undo');
  }
}
