import { JOB_LIMITS } from '@crm/projections/pipeline';
import { REPAIR_ORDER_LIMITS } from '@crm/projections/repair-orders';
import { AppError } from '../shared/errors.ts';

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
  /** A new line's place: 0 is first, the job's line count is last; the job has `count` lines now. */
  position: (count: number) => `position must be from 0 to the job's number of lines (${count} now; ${count} puts the line last)`,
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
