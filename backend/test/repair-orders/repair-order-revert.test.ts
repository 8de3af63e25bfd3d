import { describe, expect, test } from 'vitest';
import type { DomainEvent } from '@crm/projections/events';
import { EMPTY_JOB_FIELDS } from '@crm/projections/pipeline';
import {
  repairOrderDecider,
  REPAIR_ORDER_MESSAGES,
  type RepairOrderCommand,
  type RepairOrderEvent,
  type RepairOrderState,
} from '../../src/repair-orders/repair-order-decider.ts';

/** Undo of lines and payments, given/when/then: the compensating events and the refusals. */

const I = 'inst-1';
const J = 'job-1';
const shop = { laborRate: 10_000, partsTaxRate: 10_000, laborTaxRate: 0 };
const created: DomainEvent = { type: 'JobCreated', data: { jobId: J, instanceId: I, ...EMPTY_JOB_FIELDS, jobNumber: '7', name: 'Ann' } };

type Decided = ReturnType<typeof repairOrderDecider.decide>[number];
const given = (...events: DomainEvent[]): RepairOrderState =>
  events.reduce((state, event) => repairOrderDecider.evolve(state, event as never), repairOrderDecider.initialState);
const when = (state: RepairOrderState, command: RepairOrderCommand) => repairOrderDecider.decide(command, state);
const apply = (state: RepairOrderState, events: Decided[]) => events.reduce((s, e) => repairOrderDecider.evolve(s, e), state);
/** The first event of a command's decision, as the history would hand it to an undo (with an id). */
const recorded = (events: Decided[], id: string) => ({ ...(events[0] as RepairOrderEvent), id });
const revert = (target: RepairOrderEvent & { id: string }, invoicedSince: number | null = null): RepairOrderCommand => ({
  type: 'RevertChange',
  instanceId: I,
  target,
  invoicedSince,
  shop,
  refundId: 'refund-1',
  now: '2029-01-03T00:00:00.000Z',
});
const addPart = (lineId: string, unitPrice = 5000): RepairOrderCommand => ({
  type: 'AddLine',
  instanceId: I,
  lineId,
  line: { kind: 'part', description: `Part ${lineId}`, unitPrice },
  shop,
});

describe('undo of lines and payments', () => {
  test("an undo that would take the job's total past what its quote holds is refused as adding that line would be", () => {
    const big = 60_000_000_000; // $600,000,000: one fits, two are past the $999,999,999 a quote holds
    const tooLarge = expect.objectContaining({
      message: REPAIR_ORDER_MESSAGES.totalTooLarge,
      extra: { errors: [expect.objectContaining({ field: 'unitPrice' })] },
    });
    // Restore: a removed line back beside another that took its place.
    const s1 = apply(given(created), when(given(created), addPart('a', big)));
    const removed = when(s1, { type: 'RemoveLine', instanceId: I, lineId: 'a', shop });
    const s2 = apply(s1, removed);
    const s3 = apply(s2, when(s2, addPart('b', big)));
    expect(() => when(s3, addPart('a2', big))).toThrow(tooLarge);
    expect(() => when(s3, revert(recorded(removed, 'e-r')))).toThrow(tooLarge);
    // Undo of a change that made a line cheap, after another line took up the room.
    const changed = when(s1, { type: 'ChangeLine', instanceId: I, lineId: 'a', changes: { unitPrice: 100 }, shop });
    const s4 = apply(s1, changed);
    const s5 = apply(s4, when(s4, addPart('b', big)));
    expect(() => when(s5, revert(recorded(changed, 'e-c')))).toThrow(tooLarge);
    // Inside the limit the same undo is taken, and one that lowers the total always is.
    const s6 = apply(s4, when(s4, addPart('b', 5000)));
    expect(when(s6, revert(recorded(changed, 'e-c')))[0]).toMatchObject({ type: 'LineChanged' });
    expect(when(s5, { type: 'RemoveLine', instanceId: I, lineId: 'b', shop })[0]).toMatchObject({ type: 'LineRemoved' });
  });

  test('undo of a line added removes it and the quote follows the total', () => {
    const added = when(given(created), addPart('a'));
    const state = apply(apply(given(created), added), when(apply(given(created), added), addPart('b', 1000)));
    const events = when(state, revert(recorded(added, 'e-a')));
    expect(events.map((e) => e.type)).toEqual(['LineRemoved', 'JobUpdated']);
    expect(events[0]).toMatchObject({ data: { line: { id: 'a' }, position: 0, revertOf: 'e-a' } });
    expect(events[1]).toMatchObject({ data: { changes: [{ field: 'quote', oldValue: 66, newValue: 11 }] } });
  });

  test('undo of a line change sets the changed fields back, old → new', () => {
    const s1 = apply(given(created), when(given(created), addPart('a')));
    const changed = when(s1, { type: 'ChangeLine', instanceId: I, lineId: 'a', changes: { unitPrice: 7000, description: 'Rotor' }, shop });
    const s2 = apply(s1, changed);
    const events = when(s2, revert(recorded(changed, 'e-c')));
    expect(events[0]).toMatchObject({
      type: 'LineChanged',
      data: {
        lineId: 'a',
        description: 'Part a',
        revertOf: 'e-c',
        changes: expect.arrayContaining([
          { field: 'unitPrice', oldValue: 7000, newValue: 5000 },
          { field: 'description', oldValue: 'Rotor', newValue: 'Part a' },
        ]),
      },
    });
    expect(apply(s2, events).order.lines[0]).toMatchObject({ unitPrice: 5000, description: 'Part a' });
  });

  test('undo of a removal brings the line back at its place', () => {
    let state = apply(given(created), when(given(created), addPart('a')));
    state = apply(state, when(state, addPart('b')));
    const removed = when(state, { type: 'RemoveLine', instanceId: I, lineId: 'a', shop });
    state = apply(state, removed);
    const events = when(state, revert(recorded(removed, 'e-r')));
    expect(events[0]).toMatchObject({ type: 'LineAdded', data: { line: { id: 'a' }, position: 0, revertOf: 'e-r' } });
    expect(apply(state, events).order.lines.map((line) => line.id)).toEqual(['a', 'b']);
  });

  test('refusals: a line an invoice froze since, a line gone, a line back, a discount whose line is gone', () => {
    const added = when(given(created), addPart('a'));
    const state = apply(given(created), added);
    expect(() => when(state, revert(recorded(added, 'e-a'), 1001))).toThrow(REPAIR_ORDER_MESSAGES.undoFrozen(1001));
    const removed = when(state, { type: 'RemoveLine', instanceId: I, lineId: 'a', shop });
    const gone = apply(state, removed);
    expect(() => when(gone, revert(recorded(added, 'e-a')))).toThrow(REPAIR_ORDER_MESSAGES.undoLineGone);
    expect(() => when(state, revert(recorded(removed, 'e-r')))).toThrow(REPAIR_ORDER_MESSAGES.undoLineBack);
    const discount: RepairOrderEvent & { id: string } = {
      id: 'e-d',
      type: 'LineRemoved',
      data: {
        jobId: J,
        jobNumber: '7',
        name: 'Ann',
        line: { ...state.order.lines[0]!, id: 'd', kind: 'discount', appliesTo: 'zzz', amount: 100, taxable: false },
        position: 1,
        partsTaxRate: 0,
        laborTaxRate: 0,
      },
    };
    expect(() => when(state, revert(discount))).toThrow(REPAIR_ORDER_MESSAGES.undoDiscountTarget);
  });

  test('undo of a payment is a refund of it that names it; the balance reopens and Paid goes back to Invoiced', () => {
    let state = apply(given(created), when(given(created), addPart('a')));
    state = apply(state, when(state, { type: 'IssueInvoice', instanceId: I, invoiceNumber: 1001 }));
    const paid = when(state, {
      type: 'RecordPayment',
      instanceId: I,
      paymentId: 'p-1',
      amount: 5500,
      method: 'card',
      reference: 'ref 9',
      reason: '',
      receivedAt: '2029-01-02T00:00:00.000Z',
    });
    expect(paid.map((e) => e.type)).toEqual(['PaymentRecorded', 'JobStageChanged']);
    state = apply(state, paid);
    const events = when(state, revert(recorded(paid, 'e-p')));
    expect(events[0]).toMatchObject({
      type: 'RefundRecorded',
      data: {
        paymentId: 'refund-1',
        amount: 5500,
        method: 'card',
        reference: 'ref 9',
        reason: REPAIR_ORDER_MESSAGES.paymentUndoReason,
        receivedAt: '2029-01-03T00:00:00.000Z',
        revertOf: 'e-p',
      },
    });
    expect(events[1]).toMatchObject({ type: 'JobStageChanged', data: { from: 'Paid', to: 'Invoiced' } });
    // Refunded since: nothing left to undo.
    const refunded = apply(state, events);
    expect(() => when(refunded, revert(recorded(paid, 'e-p')))).toThrow('Cannot undo: the payment was refunded since');
  });

  test('estimates, decisions, invoices, refunds and reorders are not undone here', () => {
    let state = apply(given(created), when(given(created), addPart('a')));
    const issued = when(state, { type: 'IssueInvoice', instanceId: I, invoiceNumber: 1001 });
    state = apply(state, issued);
    expect(() => when(state, revert(recorded(issued, 'e-i')))).toThrow(REPAIR_ORDER_MESSAGES.undoNotRevertible);
    const sent = when(state, { type: 'SendEstimate', instanceId: I, token: 't', expiresAt: '2030-01-01T00:00:00.000Z' });
    expect(() => when(apply(state, sent), revert(recorded(sent, 'e-s')))).toThrow(REPAIR_ORDER_MESSAGES.undoNotRevertible);
  });
});
