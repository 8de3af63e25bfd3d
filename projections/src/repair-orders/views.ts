import type { EstimateSummary, InvoiceView, JobTotals, LineStatus, LineView, PaymentView } from './api.ts';
import { moneyText, scaledShortText } from './money.ts';
import {
  amountDue,
  currentTotals,
  estimateOutdated,
  estimateStatusAt,
  invoiceOutdated,
  latestEstimate,
  latestInvoice,
  paidOf,
  quotedTotal,
  type EstimateRecord,
  type FrozenTotals,
  type RepairOrder,
} from './state.ts';
import { computeTotals, type RepairLine, type TaxRates } from './totals.ts';

/** A repair order as the API shows it (decimal strings). Pure. */

export const estimateLink = (token: string) => `/estimate/${token}`;

export function lineViewOf(line: RepairLine, amount: number, status: LineStatus): LineView {
  return {
    id: line.id,
    kind: line.kind,
    description: line.description,
    partNumber: line.partNumber,
    quantity: scaledShortText(line.quantity, 3),
    unitCost: line.unitCost === null ? null : moneyText(line.unitCost),
    unitPrice: moneyText(line.unitPrice),
    hours: scaledShortText(line.hours, 2),
    rate: moneyText(line.rate),
    shopRate: line.shopRate,
    technician: line.technician,
    amount: line.amount === null ? null : moneyText(line.amount),
    percent: line.percent === null ? null : scaledShortText(line.percent, 3),
    appliesTo: line.appliesTo,
    taxable: line.taxable,
    total: moneyText(amount),
    status,
  };
}

/** Lines with their amounts; a declined line shows what it would have come to. */
export function lineViews(lines: RepairLine[], rates: TaxRates, approved: readonly string[], declined: readonly string[]): LineView[] {
  const counted = computeTotals(lines, rates, new Set(declined)).lineAmounts;
  const all = computeTotals(lines, rates).lineAmounts;
  const statusOf = (id: string): LineStatus => (declined.includes(id) ? 'declined' : approved.includes(id) ? 'approved' : 'pending');
  return lines.map((line) => lineViewOf(line, counted[line.id] ?? all[line.id] ?? 0, statusOf(line.id)));
}

export function frozenTotalsView(totals: FrozenTotals) {
  return {
    parts: moneyText(totals.parts),
    labor: moneyText(totals.labor),
    fees: moneyText(totals.fees),
    discounts: moneyText(totals.discounts),
    tax: moneyText(totals.tax),
    total: moneyText(totals.total),
  };
}

/** The job's totals: the lines' (or the quote, for a job without lines), what was paid and what is due. */
export function jobTotalsView(order: RepairOrder, quoteCents: number): JobTotals {
  const totals = currentTotals(order);
  const paid = paidOf(order);
  return {
    parts: moneyText(totals.parts),
    labor: moneyText(totals.labor),
    fees: moneyText(totals.fees),
    discounts: moneyText(totals.discounts),
    tax: moneyText(totals.tax),
    total: moneyText(quotedTotal(order, quoteCents, totals)),
    paid: moneyText(paid),
    balance: moneyText(amountDue(order, quoteCents) - paid),
  };
}

export function estimateSummaryView(order: RepairOrder, estimate: EstimateRecord, now: Date): EstimateSummary {
  return {
    version: estimate.version,
    status: estimateStatusAt(order, estimate, now),
    sentAt: estimate.sentAt,
    sentBy: estimate.sentBy,
    expiresAt: estimate.expiresAt,
    link: estimateLink(estimate.token),
    token: estimate.token,
    decision: estimate.decision && {
      name: estimate.decision.customerName,
      decidedAt: estimate.decision.decidedAt,
      address: estimate.decision.address,
      approvedLineIds: estimate.decision.approvedLineIds,
      declinedLineIds: estimate.decision.declinedLineIds,
    },
    outdated: estimateOutdated(order),
  };
}

export function invoiceViewOf(order: RepairOrder): InvoiceView | null {
  const invoice = latestInvoice(order);
  if (!invoice) return null;
  return {
    invoiceNumber: invoice.invoiceNumber,
    revision: invoice.revision,
    issuedAt: invoice.issuedAt,
    issuedBy: invoice.issuedBy,
    lines: lineViews(invoice.lines, invoice.rates, order.approved, []),
    totals: frozenTotalsView(invoice.totals),
    outdated: invoiceOutdated(order),
  };
}

export function paymentViews(order: RepairOrder): PaymentView[] {
  return order.payments.map((payment) => ({
    id: payment.paymentId,
    kind: payment.kind,
    amount: moneyText(payment.amount),
    method: payment.method,
    reference: payment.reference,
    reason: payment.reason,
    receivedAt: payment.receivedAt,
    recordedBy: payment.recordedBy,
  }));
}

/** Everything the job's answers add to the job: lines, totals, estimate, invoice, payments. */
export function repairOrderView(order: RepairOrder, quoteCents: number, now: Date) {
  const estimate = latestEstimate(order);
  return {
    lines: lineViews(order.lines, order.rates, order.approved, order.declined),
    totals: jobTotalsView(order, quoteCents),
    estimate: estimate ? estimateSummaryView(order, estimate, now) : null,
    invoice: invoiceViewOf(order),
    payments: paymentViews(order),
  };
}
