import type { DomainEventOf } from '@crm/projections/events';
import type { LineChanges, NewLine, PaymentMethod, RepairOrder, RepairOrderJobEventType, TaxRates } from '@crm/projections/repair-orders';
import type { JobEvent, JobState } from '../pipeline/index.ts';

/** What the repair-order decider decides on (the job and its repair order), the commands it takes and the events it records. */

export type RepairOrderEvent = DomainEventOf<RepairOrderJobEventType>;
/** A repair-order decision records the order's events and the job's own that follow from them. */
export type RepairOrderDecisionEvent = RepairOrderEvent | JobEvent;

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
