import { describe, expect, test } from 'vitest';
import type { DomainEvent } from '@crm/projections/events';
import { EMPTY_JOB_FIELDS } from '@crm/projections/pipeline';
import { ConflictError } from '../../src/shared/errors.ts';
import {
  GoneError,
  repairOrderDecider,
  REPAIR_ORDER_MESSAGES,
  type RepairOrderCommand,
  type RepairOrderState,
} from '../../src/repair-orders/repair-order-decider.ts';

const I = 'inst-1';
const J = 'job-1';
const shop = { laborRate: 10_000, partsTaxRate: 10_000, laborTaxRate: 0 };
const created: DomainEvent = { type: 'JobCreated', data: { jobId: J, instanceId: I, ...EMPTY_JOB_FIELDS, jobNumber: '7', name: 'Ann' } };

const given = (...events: DomainEvent[]): RepairOrderState =>
  events.reduce((state, event) => repairOrderDecider.evolve(state, event as never), repairOrderDecider.initialState);
const when = (state: RepairOrderState, command: RepairOrderCommand) => repairOrderDecider.decide(command, state);
/** Given events, each command's events appended in turn. */
const after = (state: RepairOrderState, ...commands: RepairOrderCommand[]) =>
  commands.reduce((s, c) => repairOrderDecider.decide(c, s).reduce((x, e) => repairOrderDecider.evolve(x, e), s), state);

const addPart = (lineId: string, unitPrice = 5000): RepairOrderCommand => ({
  type: 'AddLine',
  instanceId: I,
  lineId,
  line: { kind: 'part', description: `Part ${lineId}`, unitPrice },
  shop,
});
const send = (token: string, expiresAt = '2030-01-01T00:00:00.000Z'): RepairOrderCommand => ({
  type: 'SendEstimate',
  instanceId: I,
  token,
  expiresAt,
});
const decide = (token: string, approved: string[], declined: string[], now = new Date('2029-01-01T00:00:00Z')): RepairOrderCommand => ({
  type: 'DecideEstimate',
  instanceId: I,
  token,
  approvedLineIds: approved,
  declinedLineIds: declined,
  customerName: 'Ann',
  address: '203.0.113.9',
  now,
});
const invoice: RepairOrderCommand = { type: 'IssueInvoice', instanceId: I, invoiceNumber: 1001 };
const pay = (amount: number): RepairOrderCommand => ({
  type: 'RecordPayment',
  instanceId: I,
  paymentId: `pay-${amount}`,
  amount,
  method: 'cash',
  reference: '',
  reason: amount < 0 ? 'Goodwill' : '',
  receivedAt: '2029-01-02T00:00:00.000Z',
});

describe('repair order decider', () => {
  test('adding a line records it with the rates and moves the quote to the total', () => {
    const events = when(given(created), addPart('a'));
    expect(events.map((e) => e.type)).toEqual(['LineAdded', 'JobUpdated']);
    expect(events[0]!.data).toMatchObject({ position: 0, partsTaxRate: 10_000, line: { id: 'a', unitPrice: 5000, quantity: 1000 } });
    expect(events[1]!.data).toMatchObject({ changes: [{ field: 'quote', oldValue: null, newValue: 55 }] });
  });

  test('a labor line without a rate takes the shop rate; a change records old → new', () => {
    const state = after(given(created), { type: 'AddLine', instanceId: I, lineId: 'l', line: { kind: 'labor', hours: 150 }, shop });
    expect(state.order.lines[0]).toMatchObject({ rate: 10_000, shopRate: true });
    const events = when(state, { type: 'ChangeLine', instanceId: I, lineId: 'l', changes: { hours: 200 }, shop });
    expect(events[0]).toMatchObject({ type: 'LineChanged', data: { changes: [{ field: 'hours', oldValue: 150, newValue: 200 }] } });
  });

  test('refusals: unknown line, a misplaced field, a canceled job, another instance', () => {
    const state = after(given(created), addPart('a'));
    expect(() => when(state, { type: 'ChangeLine', instanceId: I, lineId: 'x', changes: {}, shop })).toThrow(
      REPAIR_ORDER_MESSAGES.lineNotFound,
    );
    expect(() => when(state, { type: 'ChangeLine', instanceId: I, lineId: 'a', changes: { hours: 1 }, shop })).toThrow('does not apply');
    expect(() => when(state, { ...addPart('b'), instanceId: 'other' })).toThrow('Job not found');
    const canceled = repairOrderDecider.evolve(state, {
      type: 'JobCanceled',
      data: { jobId: J, jobNumber: '7', name: 'Ann', previousStage: 'Quote' },
    });
    expect(() => when(canceled, addPart('b'))).toThrow(REPAIR_ORDER_MESSAGES.canceled);
    expect(() => when(state, { type: 'ReorderLines', instanceId: I, lineIds: ['a', 'a'] })).toThrow(REPAIR_ORDER_MESSAGES.reorder);
  });

  test("a line that takes the job's total past what its quote holds is refused, naming the line's amount", () => {
    // Largest price times largest quantity: one line alone is past 999,999,999 dollars.
    const huge: RepairOrderCommand = {
      type: 'AddLine',
      instanceId: I,
      lineId: 'h',
      line: { kind: 'part', description: 'Huge', unitPrice: 999_999_999, quantity: 99_999_000 },
      shop,
    };
    expect(() => when(given(created), huge)).toThrow(REPAIR_ORDER_MESSAGES.totalTooLarge);
    expect(() => when(given(created), huge)).toThrow(
      expect.objectContaining({ kind: 'validation', extra: { errors: [expect.objectContaining({ field: 'unitPrice' })] } }),
    );
    // Inside the limit it is taken; a change past it is refused too.
    const state = after(given(created), { ...huge, line: { kind: 'part', description: 'Big', unitPrice: 900_000_000, quantity: 1000 } });
    expect(state.order.lines).toHaveLength(1);
    expect(() => when(state, { type: 'ChangeLine', instanceId: I, lineId: 'h', changes: { quantity: 200_000 }, shop })).toThrow(
      REPAIR_ORDER_MESSAGES.totalTooLarge,
    );
  });

  test('removing a line takes the discounts on it along', () => {
    const state = after(given(created), addPart('a'), {
      type: 'AddLine',
      instanceId: I,
      lineId: 'd',
      line: { kind: 'discount', amount: 500, appliesTo: 'a' },
      shop,
    });
    const events = when(state, { type: 'RemoveLine', instanceId: I, lineId: 'a', shop });
    expect(events.filter((e) => e.type === 'LineRemoved').map((e) => (e.data as { line: { id: string } }).line.id)).toEqual(['d', 'a']);
  });

  test('estimate: sent with its lines; the decision marks declined lines and the total follows', () => {
    const state = after(given(created), addPart('a'), addPart('b', 1000), send('t1'));
    const events = when(state, decide('t1', ['a'], ['b']));
    expect(events[0]).toMatchObject({
      type: 'EstimateApproved',
      data: { approvedLineIds: ['a'], declinedLineIds: ['b'], customerName: 'Ann' },
    });
    expect(events[1]).toMatchObject({ type: 'JobUpdated', data: { changes: [{ field: 'quote', oldValue: 66, newValue: 55 }] } });
    expect(when(state, decide('t1', [], ['a', 'b']))[0]!.type).toBe('EstimateDeclined');
  });

  test('decision refusals: revoked, expired, superseded, already answered, lines not all named', () => {
    const sent = after(given(created), addPart('a'), send('t1', '2029-06-01T00:00:00.000Z'));
    expect(() => when(after(sent, { type: 'RevokeEstimate', instanceId: I }), decide('t1', ['a'], []))).toThrow(
      REPAIR_ORDER_MESSAGES.estimateRevoked,
    );
    expect(() => when(sent, decide('t1', ['a'], [], new Date('2029-07-01T00:00:00Z')))).toThrow(REPAIR_ORDER_MESSAGES.estimateExpired);
    expect(() => when(after(sent, decide('t1', ['a'], [])), decide('t1', ['a'], []))).toThrow(REPAIR_ORDER_MESSAGES.estimateDecided);
    expect(() => when(sent, decide('t1', [], []))).toThrow(REPAIR_ORDER_MESSAGES.decisionLines);
    expect(() => when(given(created), send('t1'))).toThrow(REPAIR_ORDER_MESSAGES.noLines);
  });

  test('a decision on a superseded estimate is refused as gone (410); an answered one stays a conflict (409)', () => {
    const sent = after(given(created), addPart('a'), send('t1'));
    // Given v1 sent, then v2 sent (which revokes v1's link): v1 cannot be decided, and says why (gone: the API's 410).
    const superseded = after(sent, send('t2'));
    const refusal = (() => {
      try {
        when(superseded, decide('t1', ['a'], []));
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(GoneError);
    expect(refusal).toMatchObject({ kind: 'gone', message: REPAIR_ORDER_MESSAGES.estimateSuperseded });
    // Also when v1's link had been revoked by the shop before v2 went out.
    expect(() => when(after(sent, { type: 'RevokeEstimate', instanceId: I }, send('t2')), decide('t1', ['a'], []))).toThrow(
      REPAIR_ORDER_MESSAGES.estimateSuperseded,
    );
    // v1 answered, then v2 sent: answering v1 again is the 409 of an answered estimate.
    const answered = after(sent, decide('t1', ['a'], []), send('t2'));
    expect(() => when(answered, decide('t1', ['a'], []))).toThrow(ConflictError);
    expect(() => when(answered, decide('t1', ['a'], []))).toThrow(REPAIR_ORDER_MESSAGES.estimateDecided);
    // The latest version still takes its decision.
    expect(when(superseded, decide('t2', ['a'], []))[0]).toMatchObject({ type: 'EstimateApproved', data: { version: 2 } });
  });

  test('invoice: frozen lines, Invoiced, refused again while nothing changed, a revision after a change', () => {
    const state = after(given(created), addPart('a'));
    const events = when(state, invoice);
    expect(events.map((e) => e.type)).toEqual(['InvoiceIssued', 'JobStageChanged']);
    expect(events[0]!.data).toMatchObject({ invoiceNumber: 1001, revision: 1, totals: { total: 5500 } });
    const invoiced = after(state, invoice);
    expect(() => when(invoiced, invoice)).toThrow(REPAIR_ORDER_MESSAGES.invoiceFrozen(1001));
    const revised = when(after(invoiced, addPart('b', 1000)), { ...invoice, invoiceNumber: 9999 });
    expect(revised[0]!.data).toMatchObject({ invoiceNumber: 1001, revision: 2, totals: { total: 6600 } });
  });

  test('payments: over the balance refused, zero balance → Paid, a refund → Invoiced, refund over paid refused', () => {
    const invoiced = after(given(created), addPart('a'), invoice);
    expect(() => when(invoiced, pay(5501))).toThrow('more than the balance');
    const paid = after(invoiced, pay(5500));
    expect(paid.job.status === 'open' && paid.job.fields.stage).toBe('Paid');
    expect(() => when(paid, pay(1))).toThrow(REPAIR_ORDER_MESSAGES.nothingDue);
    expect(() => when(paid, pay(-6000))).toThrow('cannot be more than what was paid');
    const refunded = when(paid, pay(-500));
    expect(refunded.map((e) => e.type)).toEqual(['RefundRecorded', 'JobStageChanged']);
    expect(refunded[1]!.data).toMatchObject({ from: 'Paid', to: 'Invoiced' });
  });
});
