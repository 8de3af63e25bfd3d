import type { DomainEvent } from '@crm/projections/events';
import type { Stage } from '@crm/projections/pipeline';
import {
  applyRepairOrderEvent,
  balanceOf,
  billableLines,
  computeTotals,
  EMPTY_REPAIR_ORDER,
  estimateStatusAt,
  freezeTotals,
  invoiceOutdated,
  isRepairOrderJobEvent,
  LINE_CHANGE_FIELDS,
  latestEstimate,
  latestInvoice,
  paidOf,
  quoteCents,
  REPAIR_ORDER_LIMITS,
  type TaxRates,
} from '@crm/projections/repair-orders';
import { jobDecider, type JobEvent } from '../pipeline/index.ts';
import type { Decider } from '../shared/commands.ts';
import { assertNever } from '@crm/projections/shared';
import { ConflictError, invalidField, NotFoundError } from '../shared/errors.ts';
import type {
  RepairOrderDecisionEvent as Event,
  RepairOrderCommand,
  RepairOrderEvent,
  RepairOrderState,
  ShopRates,
} from './repair-order-commands.ts';
import { dollars, existing, fold, labelOf, lineChangeEvents, open, stageFollows } from './repair-order-job.ts';
import { assertAppliesTo, changedLine, newLine } from './repair-order-lines.ts';
import { GoneError, REPAIR_ORDER_MESSAGES } from './repair-order-messages.ts';
import { revertChange } from './repair-order-undo.ts';

export type { RepairOrderCommand, RepairOrderEvent, RepairOrderState, ShopRates } from './repair-order-commands.ts';
export { GoneError, REPAIR_ORDER_MESSAGES } from './repair-order-messages.ts';

/**
 * A job's repair order: its lines, the estimate sent to the customer and their decision,
 * the invoice and the payments, decided on the job's own stream (so the job's revision,
 * If-Match and history cover them). Pure: the clock (`now`), ids, tokens, the shop's rates
 * and the invoice number come in the commands. What the money does to the job itself (its
 * quote follows the lines' total, invoicing moves it to Invoiced, a zero balance to Paid
 * and a refund back) is recorded as the job's own events in the same decision.
 */

export const repairOrderDecider: Decider<RepairOrderState, RepairOrderCommand, Event> = {
  initialState: { job: jobDecider.initialState, order: EMPTY_REPAIR_ORDER },
  evolve(state, event) {
    if (isRepairOrderJobEvent(event)) return { ...state, order: applyRepairOrderEvent(state.order, event) };
    return { ...state, job: jobDecider.evolve(state.job, event as JobEvent) };
  },
  decide(command, state) {
    const { order } = state;
    const rates = (shop: ShopRates): TaxRates => ({ partsTaxRate: shop.partsTaxRate, laborTaxRate: shop.laborTaxRate });
    switch (command.type) {
      case 'AddLine': {
        const job = open(state, command.instanceId);
        if (order.lines.length >= REPAIR_ORDER_LIMITS.linesMax) throw new ConflictError(REPAIR_ORDER_MESSAGES.tooManyLines);
        if (order.lines.some((line) => line.id === command.lineId)) throw new ConflictError('This line already exists');
        const line = newLine(command.lineId, command.line, command.shop);
        assertAppliesTo(line, order.lines);
        // A place past the last line would be stored somewhere else than asked: refused, not moved.
        if ((command.line.position ?? 0) > order.lines.length)
          throw invalidField('position', REPAIR_ORDER_MESSAGES.position(order.lines.length));
        const position = command.line.position ?? order.lines.length;
        return lineChangeEvents(
          job,
          order,
          [{ type: 'LineAdded', data: { ...labelOf(job), line, position, ...rates(command.shop) } }],
          line.kind,
        );
      }
      case 'ChangeLine': {
        const job = open(state, command.instanceId);
        const line = order.lines.find((candidate) => candidate.id === command.lineId);
        if (!line) throw new NotFoundError(REPAIR_ORDER_MESSAGES.lineNotFound);
        const next = changedLine(line, command.changes, command.shop);
        assertAppliesTo(next, order.lines);
        const changes = LINE_CHANGE_FIELDS.filter((field) => next[field] !== line[field]).map((field) => ({
          field,
          oldValue: line[field],
          newValue: next[field],
        }));
        if (changes.length === 0) return [];
        const data = { ...labelOf(job), lineId: line.id, kind: line.kind, description: next.description, changes, ...rates(command.shop) };
        return lineChangeEvents(job, order, [{ type: 'LineChanged', data }], line.kind);
      }
      case 'RemoveLine': {
        const job = open(state, command.instanceId);
        const index = order.lines.findIndex((candidate) => candidate.id === command.lineId);
        if (index < 0) throw new NotFoundError(REPAIR_ORDER_MESSAGES.lineNotFound);
        // Discounts on the line go with it.
        const removed = order.lines.filter((line) => line.id === command.lineId || line.appliesTo === command.lineId);
        const events: RepairOrderEvent[] = [];
        let lines = order.lines;
        for (const line of [...removed].reverse()) {
          const position = lines.findIndex((candidate) => candidate.id === line.id);
          events.push({ type: 'LineRemoved', data: { ...labelOf(job), line, position, ...rates(command.shop) } });
          lines = lines.filter((candidate) => candidate.id !== line.id);
        }
        return lineChangeEvents(job, order, events, order.lines[index]!.kind);
      }
      case 'ReorderLines': {
        const job = open(state, command.instanceId);
        const from = order.lines.map((line) => line.id);
        const to = command.lineIds;
        if (to.length !== from.length || new Set(to).size !== to.length || to.some((id) => !from.includes(id)))
          throw invalidField('lineIds', REPAIR_ORDER_MESSAGES.reorder);
        if (to.every((id, i) => id === from[i])) return [];
        return [{ type: 'LinesReordered', data: { ...labelOf(job), from, to } }];
      }
      case 'SendEstimate': {
        const job = open(state, command.instanceId);
        if (order.lines.length === 0) throw new ConflictError(REPAIR_ORDER_MESSAGES.noLines);
        const version = order.estimates.length + 1;
        const events: Event[] = [];
        // The open link of the version before stops working: the customer answers the latest one.
        const previous = latestEstimate(order);
        if (previous && previous.status === 'sent')
          events.push({ type: 'EstimateRevoked', data: { ...labelOf(job), version: previous.version, token: previous.token } });
        const totals = freezeTotals(computeTotals(order.lines, order.rates, new Set(order.declined)));
        events.push({
          type: 'EstimateSent',
          data: {
            ...labelOf(job),
            version,
            token: command.token,
            expiresAt: command.expiresAt,
            lines: order.lines,
            declinedLineIds: order.declined,
            ...order.rates,
            totals,
          },
        });
        return events;
      }
      case 'RevokeEstimate': {
        const job = existing(state, command.instanceId);
        const estimate = latestEstimate(order);
        if (!estimate || estimate.status !== 'sent') throw new ConflictError(REPAIR_ORDER_MESSAGES.noEstimate);
        return [{ type: 'EstimateRevoked', data: { ...labelOf(job), version: estimate.version, token: estimate.token } }];
      }
      case 'DecideEstimate': {
        const job = existing(state, command.instanceId);
        const estimate = order.estimates.find((candidate) => candidate.token === command.token);
        if (!estimate) throw new NotFoundError(REPAIR_ORDER_MESSAGES.estimateNotFound);
        // A link that no longer opens a decision is gone (410): revoked, expired or replaced by a
        // newer version. One already answered is a conflict (409): the answer stands.
        const status = estimateStatusAt(order, estimate, command.now);
        if (status === 'approved' || status === 'declined') throw new ConflictError(REPAIR_ORDER_MESSAGES.estimateDecided);
        if (status === 'superseded') throw new GoneError(REPAIR_ORDER_MESSAGES.estimateSuperseded);
        if (status === 'revoked') throw new GoneError(REPAIR_ORDER_MESSAGES.estimateRevoked);
        if (status === 'expired') throw new GoneError(REPAIR_ORDER_MESSAGES.estimateExpired);
        if (job.status === 'canceled') throw new GoneError(REPAIR_ORDER_MESSAGES.estimateRevoked);
        const ids = estimate.lines.map((line) => line.id);
        const named = [...command.approvedLineIds, ...command.declinedLineIds];
        if (named.length !== ids.length || new Set(named).size !== named.length || named.some((id) => !ids.includes(id)))
          throw invalidField('approvedLineIds', REPAIR_ORDER_MESSAGES.decisionLines);
        const data = {
          ...labelOf(job),
          version: estimate.version,
          token: estimate.token,
          approvedLineIds: ids.filter((id) => command.approvedLineIds.includes(id)),
          declinedLineIds: ids.filter((id) => command.declinedLineIds.includes(id)),
          customerName: command.customerName,
          address: command.address,
          decidedAt: command.now.toISOString(),
        };
        const decided: RepairOrderEvent =
          data.approvedLineIds.length > 0 ? { type: 'EstimateApproved', data } : { type: 'EstimateDeclined', data };
        // Declined lines leave the total: the job's quote follows.
        return lineChangeEvents(job, order, [decided], null);
      }
      case 'IssueInvoice': {
        const job = open(state, command.instanceId);
        if (order.lines.length === 0) throw new ConflictError(REPAIR_ORDER_MESSAGES.noLines);
        const lines = billableLines(order);
        if (lines.length === 0) throw new ConflictError(REPAIR_ORDER_MESSAGES.nothingToInvoice);
        const previous = latestInvoice(order);
        if (previous && !invoiceOutdated(order)) throw new ConflictError(REPAIR_ORDER_MESSAGES.invoiceFrozen(previous.invoiceNumber));
        const issued: RepairOrderEvent = {
          type: 'InvoiceIssued',
          data: {
            ...labelOf(job),
            invoiceNumber: previous?.invoiceNumber ?? command.invoiceNumber,
            revision: (previous?.revision ?? 0) + 1,
            lines,
            ...order.rates,
            totals: freezeTotals(computeTotals(lines, order.rates)),
          },
        };
        const after = fold(order, [issued]);
        const balance = balanceOf(after, quoteCents(job.fields.quote));
        const to: Stage = balance <= 0 ? 'Paid' : 'Invoiced';
        const moves: JobEvent[] =
          job.fields.stage === to ? [] : [{ type: 'JobStageChanged', data: { ...labelOf(job), from: job.fields.stage, to } }];
        return [issued, ...moves];
      }
      case 'RecordPayment': {
        const refund = command.amount < 0;
        const job = refund ? existing(state, command.instanceId) : open(state, command.instanceId);
        const paid = paidOf(order);
        if (refund) {
          if (-command.amount > paid) throw invalidField('amount', REPAIR_ORDER_MESSAGES.overPaid(dollars(paid)));
        } else {
          const balance = balanceOf(order, quoteCents(job.fields.quote));
          if (balance <= 0) throw invalidField('amount', REPAIR_ORDER_MESSAGES.nothingDue);
          if (command.amount > balance) throw invalidField('amount', REPAIR_ORDER_MESSAGES.overBalance(dollars(balance)));
        }
        const base = {
          ...labelOf(job),
          paymentId: command.paymentId,
          amount: Math.abs(command.amount),
          method: command.method,
          reference: command.reference,
          receivedAt: command.receivedAt,
        };
        const recorded: RepairOrderEvent = refund
          ? { type: 'RefundRecorded', data: { ...base, reason: command.reason } }
          : { type: 'PaymentRecorded', data: base };
        return [recorded, ...stageFollows(job, fold(order, [recorded]))];
      }
      case 'RevertChange':
        return revertChange(command, state);
      default:
        return assertNever(command, 'command');
    }
  },
};

/** Whether an event is one a repair-order command records (for callers folding mixed streams). */
export const isRepairOrderEvent = (event: DomainEvent): event is RepairOrderEvent => isRepairOrderJobEvent(event);
