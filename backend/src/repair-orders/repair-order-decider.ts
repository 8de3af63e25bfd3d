import type { DomainEvent, DomainEventOf } from '@crm/projections/events';
import { JOB_LIMITS, JOB_MESSAGES, type JobFields, type Stage } from '@crm/projections/pipeline';
import {
  applyRepairOrderEvent,
  balanceOf,
  billableLines,
  computeTotals,
  currentTotals,
  EMPTY_REPAIR_ORDER,
  estimateStatusAt,
  freezeTotals,
  invoiceOutdated,
  isRepairOrderJobEvent,
  LINE_CHANGE_FIELDS,
  LINE_KIND_FIELDS,
  latestEstimate,
  latestInvoice,
  misplacedLineFields,
  paidOf,
  quoteCents,
  REPAIR_ORDER_LIMITS,
  type LineChanges,
  type LineKind,
  type NewLine,
  type PaymentMethod,
  type RepairLine,
  type RepairOrder,
  type RepairOrderJobEventType,
  type TaxRates,
} from '@crm/projections/repair-orders';
import { jobDecider, type JobEvent, type JobState } from '../pipeline/index.ts';
import type { Decider } from '../shared/commands.ts';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';

/**
 * A job's repair order: its lines, the estimate sent to the customer and their decision,
 * the invoice and the payments, decided on the job's own stream (so the job's revision,
 * If-Match and history cover them). Pure: the clock (`now`), ids, tokens, the shop's rates
 * and the invoice number come in the commands. What the money does to the job itself (its
 * quote follows the lines' total, invoicing moves it to Invoiced, a zero balance to Paid
 * and a refund back) is recorded as the job's own events in the same decision.
 */

export type RepairOrderEvent = DomainEventOf<RepairOrderJobEventType>;
type Event = RepairOrderEvent | JobEvent;

export interface RepairOrderState {
  job: JobState;
  order: RepairOrder;
}

/** The shop's settings a line needs: its labor rate (cents per hour) and tax rates. */
export interface ShopRates extends TaxRates {
  laborRate: number;
}

export type RepairOrderCommand =
  | { type: 'AddLine'; instanceId: string; lineId: string; line: NewLine; shop: ShopRates }
  | { type: 'ChangeLine'; instanceId: string; lineId: string; changes: LineChanges; shop: ShopRates }
  | { type: 'RemoveLine'; instanceId: string; lineId: string; shop: ShopRates }
  | { type: 'ReorderLines'; instanceId: string; lineIds: string[] }
  | { type: 'SendEstimate'; instanceId: string; token: string; expiresAt: string }
  | { type: 'RevokeEstimate'; instanceId: string }
  | {
      type: 'DecideEstimate';
      instanceId: string;
      token: string;
      approvedLineIds: string[];
      declinedLineIds: string[];
      customerName: string;
      address: string;
      now: Date;
    }
  /** `invoiceNumber`: the number reserved for a first invoice (a revision keeps its invoice's). */
  | { type: 'IssueInvoice'; instanceId: string; invoiceNumber: number }
  /** A positive amount is a payment, a negative one a refund. */
  | {
      type: 'RecordPayment';
      instanceId: string;
      paymentId: string;
      amount: number;
      method: PaymentMethod;
      reference: string;
      reason: string;
      receivedAt: string;
    }
  /**
   * Undo of one change from the job's history (`target`, the event as recorded, with its id):
   * a compensating event that names it (`revertOf`). `invoicedSince`: the number of an invoice
   * issued after the change (its lines froze the change), null when none. `refundId` and
   * `now`: the compensating refund's id and time when the change is a payment.
   */
  | {
      type: 'RevertChange';
      instanceId: string;
      target: RepairOrderEvent & { id: string };
      invoicedSince: number | null;
      shop: ShopRates;
      refundId: string;
      now: string;
    };

/** The estimate link can no longer be used (a 410). */
export class GoneError extends AppError {
  constructor(message: string) {
    super('gone', message);
  }
}

export const REPAIR_ORDER_MESSAGES = {
  lineNotFound: 'Line not found',
  canceled: 'This job is canceled: reopen it first',
  tooManyLines: `A job has at most ${REPAIR_ORDER_LIMITS.linesMax} lines`,
  totalTooLarge: `A job's total must be at most ${JOB_LIMITS.quoteMax.toLocaleString('en-US')} dollars, like its quote`,
  appliesTo: 'appliesTo must be the id of a part, labor or fee line of this job',
  reorder: 'lineIds must name every line of the job once',
  noLines: 'Add lines to the job first',
  nothingToInvoice: 'Every line was declined: there is nothing to invoice',
  invoiceFrozen: (number: number) =>
    `Invoice #${number} is issued and its lines are frozen; change the lines first to issue a new revision`,
  noEstimate: 'No estimate link is open for this job',
  estimateNotFound: 'This estimate does not exist',
  estimateRevoked: 'The shop withdrew this estimate. Please contact the shop.',
  estimateExpired: 'This estimate link has expired. Please contact the shop for a new one.',
  estimateSuperseded: 'The shop has sent a newer estimate: open the latest link.',
  estimateDecided: 'This estimate has already been answered.',
  decisionLines: 'Approve or decline every line of the estimate',
  overBalance: (balance: string) => `Amount is more than the balance due (${balance})`,
  nothingDue: 'Nothing is due on this job',
  overPaid: (paid: string) => `A refund cannot be more than what was paid (${paid})`,
  undoFrozen: (number: number) =>
    `Cannot undo: invoice #${number} was issued after this change and froze its lines. Change the lines instead and issue a new revision.`,
  undoLineGone: 'Cannot undo: this line was removed since',
  undoLineBack: 'Cannot undo: this line is on the job again',
  undoDiscountTarget: 'Cannot undo: the line this discount applies to is gone; bring that line back first',
  undoPaymentRefunded: (paid: string) => `Cannot undo: the payment was refunded since (paid now ${paid})`,
  undoNotRevertible: 'Only line changes and payments of a repair order can be undone (not estimates, decisions, invoices or refunds)',
  paymentUndoReason: 'Undo of a payment recorded by mistake',
} as const;

type Existing = Extract<JobState, { status: 'open' | 'canceled' }>;

function existing(state: RepairOrderState, instanceId: string): Existing {
  const job = state.job;
  if ((job.status !== 'open' && job.status !== 'canceled') || job.instanceId !== instanceId) throw new NotFoundError(JOB_MESSAGES.notFound);
  return job;
}

function open(state: RepairOrderState, instanceId: string): Existing {
  const job = existing(state, instanceId);
  if (job.status === 'canceled') throw new ConflictError(REPAIR_ORDER_MESSAGES.canceled);
  return job;
}

const labelOf = (job: Existing) => ({ jobId: job.jobId, jobNumber: job.fields.jobNumber, name: job.fields.name });
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** A new line from what the form sent: defaults for what it left out, the shop's labor rate when it named none. */
function newLine(id: string, input: NewLine, shop: ShopRates): RepairLine {
  const rate = input.kind === 'labor' ? (input.rate ?? null) : null;
  return {
    id,
    kind: input.kind,
    description: input.description ?? '',
    partNumber: input.partNumber ?? '',
    quantity: input.kind === 'part' ? (input.quantity ?? 1000) : 0,
    unitCost: input.unitCost ?? null,
    unitPrice: input.unitPrice ?? 0,
    hours: input.hours ?? 0,
    rate: input.kind === 'labor' ? (rate ?? shop.laborRate) : 0,
    shopRate: input.kind === 'labor' && rate === null,
    technician: input.technician ?? '',
    amount: input.amount ?? null,
    percent: input.percent ?? null,
    appliesTo: input.kind === 'discount' ? (input.appliesTo ?? null) : null,
    taxable: input.kind === 'discount' ? false : (input.taxable ?? true),
  };
}

/** A line after a change: only its kind's fields; a fee or discount switches between amount and percent. */
function changedLine(line: RepairLine, changes: LineChanges, shop: ShopRates): RepairLine {
  const misplaced = misplacedLineFields(line.kind, changes);
  if (misplaced.length > 0) throw new ValidationError(`${misplaced[0]} does not apply to a ${line.kind} line`, { field: misplaced[0] });
  const next: RepairLine = { ...line };
  const fields = LINE_KIND_FIELDS[line.kind];
  const given = <K extends keyof LineChanges>(field: K) => fields.includes(field) && changes[field] !== undefined;
  if (given('description')) next.description = changes.description ?? '';
  if (given('partNumber')) next.partNumber = changes.partNumber ?? '';
  if (given('quantity')) next.quantity = changes.quantity ?? 1000;
  if (given('unitCost')) next.unitCost = changes.unitCost ?? null;
  if (given('unitPrice')) {
    if (changes.unitPrice === null) throw new ValidationError('A part line needs a unit price', { field: 'unitPrice' });
    next.unitPrice = changes.unitPrice!;
  }
  if (given('hours')) {
    if (changes.hours === null) throw new ValidationError('A labor line needs its hours', { field: 'hours' });
    next.hours = changes.hours!;
  }
  if (given('rate')) {
    next.rate = changes.rate ?? shop.laborRate;
    next.shopRate = changes.rate === null;
  }
  if (given('technician')) next.technician = changes.technician ?? '';
  if (given('taxable')) next.taxable = changes.taxable!;
  if (given('appliesTo')) next.appliesTo = changes.appliesTo ?? null;
  if (line.kind === 'fee' || line.kind === 'discount') {
    const amount = changes.amount;
    const percent = changes.percent;
    if (amount !== undefined && amount !== null && percent !== undefined && percent !== null)
      throw new ValidationError(`A ${line.kind} line takes either an amount or a percent`, { field: 'amount' });
    if (amount !== undefined && amount !== null) [next.amount, next.percent] = [amount, null];
    else if (percent !== undefined && percent !== null) [next.amount, next.percent] = [null, percent];
    else if (amount === null || percent === null) {
      // Clearing the one it has leaves it with neither.
      if ((amount === null && line.amount !== null) || (percent === null && line.percent !== null))
        throw new ValidationError(`A ${line.kind} line needs either an amount or a percent`, { field: 'amount' });
    }
  }
  return next;
}

function assertAppliesTo(line: RepairLine, lines: readonly RepairLine[]) {
  if (line.kind !== 'discount' || line.appliesTo === null) return;
  const target = lines.find((other) => other.id === line.appliesTo);
  if (!target || target.kind === 'discount' || target.id === line.id)
    throw new ValidationError(REPAIR_ORDER_MESSAGES.appliesTo, { field: 'appliesTo' });
}

/**
 * The job's own events that follow from a change of its lines: its quote is the lines'
 * total (a job without lines keeps the quote it has).
 */
function quoteFollows(job: Existing, before: RepairOrder, after: RepairOrder): JobEvent[] {
  if (after.lines.length === 0) return [];
  const total = currentTotals(after).total / 100;
  const old = job.fields.quote;
  if (old !== null && Math.round(old * 100) === Math.round(total * 100)) return [];
  void before;
  return [{ type: 'JobUpdated', data: { ...labelOf(job), changes: [{ field: 'quote', oldValue: old, newValue: total }] } }];
}

/** Invoiced with nothing due → Paid; Paid with something due again → Invoiced. */
function stageFollows(job: Existing, order: RepairOrder, fields: JobFields = job.fields): JobEvent[] {
  if (job.status === 'canceled' || !latestInvoice(order)) return [];
  const balance = balanceOf(order, quoteCents(fields.quote));
  const to: Stage = balance <= 0 ? 'Paid' : 'Invoiced';
  const from = fields.stage;
  if (from === to) return [];
  // A payment on a job not yet at Invoiced (a deposit) moves nothing until it is paid up.
  if (to === 'Invoiced' && from !== 'Paid') return [];
  return [{ type: 'JobStageChanged', data: { ...labelOf(job), from, to } }];
}

const fold = (order: RepairOrder, events: RepairOrderEvent[]) => events.reduce((o, e) => applyRepairOrderEvent(o, e), order);

/** The field that carries a line's amount, for a refusal that names it. */
const AMOUNT_FIELD: Record<LineKind, string> = { part: 'unitPrice', labor: 'hours', fee: 'amount', discount: 'amount' };

/**
 * The job's totals stay inside what its quote can hold (a job with lines takes its quote from
 * its total), which also keeps every sum exact in whole cents: 200 lines of the largest price
 * times the largest quantity would be past the last integer a number holds exactly.
 */
function assertTotalsFit(after: RepairOrder, kind: LineKind): void {
  const totals = currentTotals(after);
  const max = JOB_LIMITS.quoteMax * 100;
  const parts = [totals.parts, totals.labor, totals.fees, totals.discounts, totals.tax, totals.total];
  if (parts.some((cents) => Math.abs(cents) > max))
    throw new ValidationError(REPAIR_ORDER_MESSAGES.totalTooLarge, {
      errors: [{ field: AMOUNT_FIELD[kind], message: REPAIR_ORDER_MESSAGES.totalTooLarge }],
    });
}

function lineChangeEvents(job: Existing, order: RepairOrder, events: RepairOrderEvent[], changed?: LineKind): Event[] {
  const after = fold(order, events);
  if (changed) assertTotalsFit(after, changed);
  return [...events, ...quoteFollows(job, order, after)];
}

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
        const position = Math.min(command.line.position ?? order.lines.length, order.lines.length);
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
        return lineChangeEvents(job, order, events);
      }
      case 'ReorderLines': {
        const job = open(state, command.instanceId);
        const from = order.lines.map((line) => line.id);
        const to = command.lineIds;
        if (to.length !== from.length || new Set(to).size !== to.length || to.some((id) => !from.includes(id)))
          throw new ValidationError(REPAIR_ORDER_MESSAGES.reorder, { field: 'lineIds' });
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
          throw new ValidationError(REPAIR_ORDER_MESSAGES.decisionLines, { field: 'approvedLineIds' });
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
        return lineChangeEvents(job, order, [decided]);
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
          if (-command.amount > paid) throw new ValidationError(REPAIR_ORDER_MESSAGES.overPaid(dollars(paid)), { field: 'amount' });
        } else {
          const balance = balanceOf(order, quoteCents(job.fields.quote));
          if (balance <= 0) throw new ValidationError(REPAIR_ORDER_MESSAGES.nothingDue, { field: 'amount' });
          if (command.amount > balance) throw new ValidationError(REPAIR_ORDER_MESSAGES.overBalance(dollars(balance)), { field: 'amount' });
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
        return assertNever(command);
    }
  },
};

/**
 * The compensating events of an undo. A line change comes back as the opposite line event
 * (an addition as a removal, a change as the change back, a removal as the line back at its
 * place); a payment as a refund of it, so the day it was taken and the day it was undone both
 * stay true in the takings. A change an invoice froze is refused: the invoice's lines are the
 * record of what was billed.
 */
function revertChange(command: Extract<RepairOrderCommand, { type: 'RevertChange' }>, state: RepairOrderState): Event[] {
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
      return lineChangeEvents(job, order, [removed]);
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
      return lineChangeEvents(job, order, [{ type: 'LineChanged', data }]);
    }
    case 'LineRemoved': {
      const job = open(state, command.instanceId);
      const line = target.data.line;
      if (order.lines.some((candidate) => candidate.id === line.id)) throw new ConflictError(REPAIR_ORDER_MESSAGES.undoLineBack);
      if (order.lines.length >= REPAIR_ORDER_LIMITS.linesMax) throw new ConflictError(REPAIR_ORDER_MESSAGES.tooManyLines);
      if (line.kind === 'discount' && line.appliesTo !== null && !order.lines.some((candidate) => candidate.id === line.appliesTo))
        throw new ConflictError(REPAIR_ORDER_MESSAGES.undoDiscountTarget);
      const position = Math.min(target.data.position, order.lines.length);
      return lineChangeEvents(job, order, [
        { type: 'LineAdded', data: { ...labelOf(job), line, position, ...rates, revertOf: target.id } },
      ]);
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
      return assertNever(target);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled command ${JSON.stringify(value)}`);
}

/** Whether an event is one a repair-order command records (for callers folding mixed streams). */
export const isRepairOrderEvent = (event: DomainEvent): event is RepairOrderEvent => isRepairOrderJobEvent(event);
