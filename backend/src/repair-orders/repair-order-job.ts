import { JOB_LIMITS, JOB_MESSAGES, type JobFields, type Stage } from '@crm/projections/pipeline';
import {
  applyRepairOrderEvent,
  balanceOf,
  currentTotals,
  latestInvoice,
  quoteCents,
  type LineKind,
  type RepairOrder,
} from '@crm/projections/repair-orders';
import type { JobEvent, JobState } from '../pipeline/index.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import type { RepairOrderDecisionEvent as Event, RepairOrderEvent, RepairOrderState } from './repair-order-commands.ts';
import { REPAIR_ORDER_MESSAGES } from './repair-order-messages.ts';

/**
 * The job a repair-order command acts on: whether it may (it exists in the instance, it is
 * open), how events name it, and the job's own events that follow from its repair order
 * (the quote follows the lines' total, the stage the balance).
 */

export type Existing = Extract<JobState, { status: 'open' | 'canceled' }>;

export function existing(state: RepairOrderState, instanceId: string): Existing {
  const job = state.job;
  if ((job.status !== 'open' && job.status !== 'canceled') || job.instanceId !== instanceId) throw new NotFoundError(JOB_MESSAGES.notFound);
  return job;
}

export function open(state: RepairOrderState, instanceId: string): Existing {
  const job = existing(state, instanceId);
  if (job.status === 'canceled') throw new ConflictError(REPAIR_ORDER_MESSAGES.canceled);
  return job;
}

export const labelOf = (job: Existing) => ({ jobId: job.jobId, jobNumber: job.fields.jobNumber, name: job.fields.name });
export const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

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
export function stageFollows(job: Existing, order: RepairOrder, fields: JobFields = job.fields): JobEvent[] {
  if (job.status === 'canceled' || !latestInvoice(order)) return [];
  const balance = balanceOf(order, quoteCents(fields.quote));
  const to: Stage = balance <= 0 ? 'Paid' : 'Invoiced';
  const from = fields.stage;
  if (from === to) return [];
  // A payment on a job not yet at Invoiced (a deposit) moves nothing until it is paid up.
  if (to === 'Invoiced' && from !== 'Paid') return [];
  return [{ type: 'JobStageChanged', data: { ...labelOf(job), from, to } }];
}

export const fold = (order: RepairOrder, events: RepairOrderEvent[]) => events.reduce((o, e) => applyRepairOrderEvent(o, e), order);

/** The field that carries a line's amount, for a refusal that names it. */
const AMOUNT_FIELD: Record<LineKind, string> = { part: 'unitPrice', labor: 'hours', fee: 'amount', discount: 'amount' };

const sums = (order: RepairOrder) => {
  const totals = currentTotals(order);
  return [totals.parts, totals.labor, totals.fees, totals.discounts, totals.tax, totals.total];
};

/**
 * The job's totals stay inside what its quote can hold (a job with lines takes its quote from
 * its total), which also keeps every sum exact in whole cents: 200 lines of the largest price
 * times the largest quantity would be past the last integer a number holds exactly. Every
 * change of the lines is held to it (an addition, a change, a removal of a discount, and the
 * undo of any of them); a change that brings a sum past the limit no nearer to it is not.
 */
function assertTotalsFit(before: RepairOrder, after: RepairOrder, kind: LineKind): void {
  const max = JOB_LIMITS.quoteMax * 100;
  const old = sums(before);
  if (sums(after).some((cents, i) => Math.abs(cents) > max && Math.abs(cents) > Math.abs(old[i]!)))
    throw new ValidationError(REPAIR_ORDER_MESSAGES.totalTooLarge, {
      errors: [{ field: AMOUNT_FIELD[kind], message: REPAIR_ORDER_MESSAGES.totalTooLarge }],
    });
}

/**
 * A change of the job's lines with what follows on the job. `changed` is the kind of line it
 * changes (the refusal names its amount field); null for a customer's decision on an estimate,
 * which only takes lines out of the total the customer was sent.
 */
export function lineChangeEvents(job: Existing, order: RepairOrder, events: RepairOrderEvent[], changed: LineKind | null): Event[] {
  const after = fold(order, events);
  if (changed) assertTotalsFit(order, after, changed);
  return [...events, ...quoteFollows(job, order, after)];
}
