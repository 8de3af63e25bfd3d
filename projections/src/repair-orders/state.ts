import type { z } from 'zod';
import type { StoredDomainEvent } from '../events.ts';
import type { PaymentMethod } from './api.ts';
import { isRepairOrderJobEvent, type frozenTotalsSchema, type RepairOrderJobEvent } from './events.ts';
import { computeTotals, type RepairLine, type TaxRates, type Totals } from './totals.ts';

/**
 * A job's repair order folded from its stream's repair-order events: the decider decides
 * on it, the read model stores it, the job's answers and documents show it. Pure; `meta`
 * (who and when, from the stored event) is filled in where the caller has it.
 */

export type FrozenTotals = z.infer<typeof frozenTotalsSchema>;

export interface EventMeta {
  at: string;
  by: string;
}

export interface EstimateRecord {
  version: number;
  token: string;
  expiresAt: string;
  lines: RepairLine[];
  declinedLineIds: string[];
  rates: TaxRates;
  totals: FrozenTotals;
  status: 'sent' | 'approved' | 'declined' | 'revoked';
  decision: { customerName: string; address: string; decidedAt: string; approvedLineIds: string[]; declinedLineIds: string[] } | null;
  sentAt: string;
  sentBy: string;
}

export interface InvoiceRecord {
  invoiceNumber: number;
  revision: number;
  lines: RepairLine[];
  rates: TaxRates;
  totals: FrozenTotals;
  issuedAt: string;
  issuedBy: string;
}

export interface PaymentRecord {
  paymentId: string;
  kind: 'payment' | 'refund';
  /** refunds negative */
  amount: number;
  method: PaymentMethod;
  reference: string;
  reason: string;
  receivedAt: string;
  recordedBy: string;
}

export interface RepairOrder {
  lines: RepairLine[];
  /** The tax rates in force when the lines last changed (a settings change applies to a job at its next line change). */
  rates: TaxRates;
  /** By the customer's last decision (a line changed since is undecided again). */
  approved: string[];
  declined: string[];
  estimates: EstimateRecord[];
  invoices: InvoiceRecord[];
  payments: PaymentRecord[];
}

export const EMPTY_REPAIR_ORDER: RepairOrder = {
  lines: [],
  rates: { partsTaxRate: 0, laborTaxRate: 0 },
  approved: [],
  declined: [],
  estimates: [],
  invoices: [],
  payments: [],
};

const NO_META: EventMeta = { at: '', by: '' };

/** The repair order of a job's stream as stored (its other events skipped), with who and when of each change. */
export function repairOrderFromEvents(events: readonly StoredDomainEvent[]): RepairOrder {
  let order = EMPTY_REPAIR_ORDER;
  for (const event of events) {
    if (!isRepairOrderJobEvent(event)) continue;
    order = applyRepairOrderEvent(order, event, { at: event.recordedAt.toISOString(), by: event.metadata.actor.displayName });
  }
  return order;
}

/**
 * A job with repair-order lines takes its quote from their total: while it has any, neither a
 * save nor a revert of the job may set its quote (the job dialog shows it read-only). The one
 * statement of the rule; each command refuses with its own words for what to do instead.
 */
export const quoteFollowsLines = (order: Pick<RepairOrder, 'lines'>): boolean => order.lines.length > 0;

const without = (ids: string[], removed: string) => ids.filter((id) => id !== removed);

export function applyRepairOrderEvent(order: RepairOrder, event: RepairOrderJobEvent, meta: EventMeta = NO_META): RepairOrder {
  switch (event.type) {
    case 'LineAdded': {
      const lines = [...order.lines];
      lines.splice(Math.min(event.data.position, lines.length), 0, event.data.line);
      return { ...order, lines, rates: ratesOf(event.data, order.rates) };
    }
    case 'LineChanged': {
      const lines = order.lines.map((line) => {
        if (line.id !== event.data.lineId) return line;
        const next: Record<string, unknown> = { ...line };
        for (const change of event.data.changes) next[change.field] = change.newValue;
        return next as unknown as RepairLine;
      });
      const { lineId } = event.data;
      return {
        ...order,
        lines,
        rates: ratesOf(event.data, order.rates),
        approved: without(order.approved, lineId),
        declined: without(order.declined, lineId),
      };
    }
    case 'LineRemoved': {
      const lineId = event.data.line.id;
      return {
        ...order,
        lines: order.lines.filter((line) => line.id !== lineId),
        rates: ratesOf(event.data, order.rates),
        approved: without(order.approved, lineId),
        declined: without(order.declined, lineId),
      };
    }
    case 'LinesReordered': {
      const byId = new Map(order.lines.map((line) => [line.id, line]));
      const lines = event.data.to.map((id) => byId.get(id)).filter((line): line is RepairLine => Boolean(line));
      // Lines the event does not name (none, when the decider wrote it) keep their place at the end.
      for (const line of order.lines) if (!event.data.to.includes(line.id)) lines.push(line);
      return { ...order, lines };
    }
    case 'EstimateSent': {
      const { version, token, expiresAt, lines, declinedLineIds, partsTaxRate, laborTaxRate, totals } = event.data;
      const estimate: EstimateRecord = {
        version,
        token,
        expiresAt,
        lines,
        declinedLineIds,
        rates: { partsTaxRate, laborTaxRate },
        totals,
        status: 'sent',
        decision: null,
        sentAt: meta.at,
        sentBy: meta.by,
      };
      return { ...order, estimates: [...order.estimates, estimate] };
    }
    case 'EstimateRevoked':
      return {
        ...order,
        estimates: order.estimates.map((estimate) => (estimate.token === event.data.token ? { ...estimate, status: 'revoked' } : estimate)),
      };
    case 'EstimateApproved':
    case 'EstimateDeclined': {
      const { token, approvedLineIds, declinedLineIds, customerName, address, decidedAt } = event.data;
      const status = event.type === 'EstimateApproved' ? 'approved' : 'declined';
      return {
        ...order,
        approved: approvedLineIds,
        declined: declinedLineIds,
        estimates: order.estimates.map((estimate) =>
          estimate.token === token
            ? { ...estimate, status, decision: { customerName, address, decidedAt, approvedLineIds, declinedLineIds } }
            : estimate,
        ),
      };
    }
    case 'InvoiceIssued': {
      const { invoiceNumber, revision, lines, partsTaxRate, laborTaxRate, totals } = event.data;
      const invoice: InvoiceRecord = {
        invoiceNumber,
        revision,
        lines,
        rates: { partsTaxRate, laborTaxRate },
        totals,
        issuedAt: meta.at,
        issuedBy: meta.by,
      };
      return { ...order, invoices: [...order.invoices, invoice] };
    }
    case 'PaymentRecorded':
    case 'RefundRecorded': {
      const refund = event.type === 'RefundRecorded';
      const payment: PaymentRecord = {
        paymentId: event.data.paymentId,
        kind: refund ? 'refund' : 'payment',
        amount: refund ? -event.data.amount : event.data.amount,
        method: event.data.method,
        reference: event.data.reference,
        reason: event.type === 'RefundRecorded' ? event.data.reason : '',
        receivedAt: event.data.receivedAt,
        recordedBy: meta.by,
      };
      return { ...order, payments: [...order.payments, payment] };
    }
  }
}

function ratesOf(data: TaxRates, _fallback: TaxRates): TaxRates {
  return { partsTaxRate: data.partsTaxRate, laborTaxRate: data.laborTaxRate };
}

// ---- what follows from the state -------------------------------------------------------

export function freezeTotals(totals: Totals): FrozenTotals {
  const { parts, labor, fees, discounts, partsTax, laborTax, tax, total } = totals;
  return { parts, labor, fees, discounts, partsTax, laborTax, tax, total };
}

/** The lines' totals now (declined lines left out). */
export function currentTotals(order: RepairOrder): Totals {
  return computeTotals(order.lines, order.rates, new Set(order.declined));
}

/** The lines an invoice issued now would bill: all but the declined ones (and discounts on them). */
export function billableLines(order: RepairOrder): RepairLine[] {
  const declined = new Set(order.declined);
  return order.lines.filter((line) => !declined.has(line.id) && !(line.appliesTo !== null && declined.has(line.appliesTo)));
}

export const latestInvoice = (order: RepairOrder): InvoiceRecord | null => order.invoices[order.invoices.length - 1] ?? null;
export const latestEstimate = (order: RepairOrder): EstimateRecord | null => order.estimates[order.estimates.length - 1] ?? null;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The latest invoice no longer bills what the lines say (issue a new revision). */
export function invoiceOutdated(order: RepairOrder): boolean {
  const invoice = latestInvoice(order);
  return invoice !== null && !(sameJson(invoice.lines, billableLines(order)) && sameJson(invoice.rates, order.rates));
}

/** The lines changed since the latest estimate was sent. */
export function estimateOutdated(order: RepairOrder): boolean {
  const estimate = latestEstimate(order);
  return estimate !== null && !(sameJson(estimate.lines, order.lines) && sameJson(estimate.rates, order.rates));
}

export const paidOf = (order: RepairOrder): number => order.payments.reduce((sum, payment) => sum + payment.amount, 0);

/**
 * What the job costs the customer: the latest invoice's total once invoiced, else the
 * lines' total, else (no lines) its quote in cents.
 */
export function amountDue(order: RepairOrder, quoteCents: number): number {
  const invoice = latestInvoice(order);
  return invoice ? invoice.totals.total : quotedTotal(order, quoteCents);
}

/** The job's total as its lines stand: theirs (declined ones left out), or its quote in cents while it has none. */
export function quotedTotal(order: RepairOrder, quoteCents: number, totals: Totals = currentTotals(order)): number {
  return order.lines.length > 0 ? totals.total : quoteCents;
}

export function balanceOf(order: RepairOrder, quoteCents: number): number {
  return amountDue(order, quoteCents) - paidOf(order);
}

/**
 * An estimate's status at `now`: an answered one keeps its answer; an older version that was
 * not answered reads superseded (sending a newer one also revokes its link, but what the
 * customer needs to hear is that a newer one exists); a link past its expiry reads expired.
 */
export function estimateStatusAt(order: RepairOrder, estimate: EstimateRecord, now: Date) {
  if (estimate.status === 'approved' || estimate.status === 'declined') return estimate.status;
  if (latestEstimate(order)?.token !== estimate.token) return 'superseded' as const;
  if (estimate.status === 'revoked') return 'revoked' as const;
  if (Date.parse(estimate.expiresAt) <= now.getTime()) return 'expired' as const;
  return 'sent' as const;
}

/** A quote in dollars (the job's field) as cents. */
export const quoteCents = (quote: number | null): number => (quote === null ? 0 : Math.round(quote * 100));
