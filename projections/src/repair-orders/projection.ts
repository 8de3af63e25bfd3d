import type { StoredDomainEvent } from '../events.ts';
import { chunked, insertRecordset, type Projection, type ProjectionContext } from '../runtime/projection.ts';
import { isRepairOrderJobEvent, REPAIR_ORDER_JOB_EVENT_TYPES, type RepairOrderJobEvent } from './events.ts';
import {
  applyRepairOrderEvent,
  currentTotals,
  EMPTY_REPAIR_ORDER,
  latestEstimate,
  latestInvoice,
  paidOf,
  type RepairOrder,
} from './state.ts';

type StoredOrderEvent = StoredDomainEvent & RepairOrderJobEvent;

interface Money {
  instanceId: string;
  order: RepairOrder;
  revision: number;
  changed: boolean;
}

const MONEY_COLUMNS = {
  job_id: 'uuid',
  instance_id: 'uuid',
  state: 'jsonb',
  lines_count: 'integer',
  parts: 'bigint',
  labor: 'bigint',
  fees: 'bigint',
  discounts: 'bigint',
  tax: 'bigint',
  total: 'bigint',
  paid: 'bigint',
  invoice_number: 'integer',
  invoice_total: 'bigint',
  estimate_status: 'text',
  revision: 'integer',
};

const INVOICE_COLUMNS = {
  event_id: 'uuid',
  instance_id: 'uuid',
  job_id: 'uuid',
  job_number: 'text',
  customer_name: 'text',
  invoice_number: 'integer',
  revision: 'integer',
  issued_at: 'timestamptz',
  issued_by: 'text',
  parts: 'bigint',
  labor: 'bigint',
  fees: 'bigint',
  discounts: 'bigint',
  tax: 'bigint',
  total: 'bigint',
  delta_parts: 'bigint',
  delta_labor: 'bigint',
  delta_fees: 'bigint',
  delta_discounts: 'bigint',
  delta_tax: 'bigint',
  delta_total: 'bigint',
};

const PAYMENT_COLUMNS = {
  payment_id: 'uuid',
  event_id: 'uuid',
  instance_id: 'uuid',
  job_id: 'uuid',
  kind: 'text',
  amount: 'bigint',
  method: 'text',
  reference: 'text',
  reason: 'text',
  received_at: 'timestamptz',
  recorded_at: 'timestamptz',
  recorded_by: 'text',
};

/**
 * `job_money` (a job's repair order folded, and its money for lists and the customer page),
 * `invoices` (each revision as issued, with what it changed) and `payments` (refunds
 * negative). Guarded by the job stream's revision and keyed by event ids, so a replayed
 * batch changes nothing.
 */
async function applyOrderEvents(all: StoredDomainEvent[], ctx: ProjectionContext): Promise<void> {
  const events = all.filter((event): event is StoredOrderEvent => isRepairOrderJobEvent(event) && Boolean(event.metadata.instanceId));
  if (events.length === 0) return;
  const jobIds = [...new Set(events.map((event) => event.data.jobId))];
  const states = new Map<string, Money>();
  for (const chunk of chunked(jobIds)) {
    const rows = (await ctx
      .table('job_money')
      .whereRaw('job_id = any(?::uuid[])', [chunk])
      .select('job_id', 'instance_id', 'state', 'revision')) as Array<{
      job_id: string;
      instance_id: string;
      state: RepairOrder;
      revision: number;
    }>;
    for (const row of rows)
      states.set(row.job_id, {
        instanceId: row.instance_id,
        order: row.state,
        revision: row.revision,
        changed: false,
      });
  }
  const invoices: Record<string, unknown>[] = [];
  const payments: Record<string, unknown>[] = [];
  for (const event of events) {
    const jobId = event.data.jobId;
    let state = states.get(jobId);
    if (!state) {
      state = { instanceId: event.metadata.instanceId!, order: EMPTY_REPAIR_ORDER, revision: -1, changed: false };
      states.set(jobId, state);
    }
    if (state.revision >= event.revision) continue;
    const before = state.order;
    state.order = applyRepairOrderEvent(before, event, { at: event.recordedAt.toISOString(), by: event.metadata.actor.displayName });
    state.revision = event.revision;
    state.changed = true;
    if (event.type === 'InvoiceIssued') {
      const previous = latestInvoice(before)?.totals;
      const totals = event.data.totals;
      const delta = (key: keyof typeof totals) => totals[key] - (previous?.[key] ?? 0);
      invoices.push({
        event_id: event.id,
        instance_id: state.instanceId,
        job_id: jobId,
        job_number: event.data.jobNumber,
        customer_name: event.data.name,
        invoice_number: event.data.invoiceNumber,
        revision: event.data.revision,
        // The command's clock, as a payment's default time is: both sides of the day's takings agree.
        issued_at: event.metadata.occurredAt,
        issued_by: event.metadata.actor.displayName,
        parts: totals.parts,
        labor: totals.labor,
        fees: totals.fees,
        discounts: totals.discounts,
        tax: totals.tax,
        total: totals.total,
        delta_parts: delta('parts'),
        delta_labor: delta('labor'),
        delta_fees: delta('fees'),
        delta_discounts: delta('discounts'),
        delta_tax: delta('tax'),
        delta_total: delta('total'),
      });
    }
    if (event.type === 'PaymentRecorded' || event.type === 'RefundRecorded') {
      const refund = event.type === 'RefundRecorded';
      payments.push({
        payment_id: event.data.paymentId,
        event_id: event.id,
        instance_id: state.instanceId,
        job_id: jobId,
        kind: refund ? 'refund' : 'payment',
        amount: refund ? -event.data.amount : event.data.amount,
        method: event.data.method,
        reference: event.data.reference,
        reason: event.type === 'RefundRecorded' ? event.data.reason : '',
        received_at: event.data.receivedAt,
        recorded_at: event.recordedAt.toISOString(),
        recorded_by: event.metadata.actor.displayName,
      });
    }
  }
  const rows = [...states.entries()]
    .filter(([, state]) => state.changed)
    .map(([jobId, state]) => {
      const totals = currentTotals(state.order);
      const invoice = latestInvoice(state.order);
      return {
        job_id: jobId,
        instance_id: state.instanceId,
        state: state.order,
        lines_count: state.order.lines.length,
        parts: totals.parts,
        labor: totals.labor,
        fees: totals.fees,
        discounts: totals.discounts,
        tax: totals.tax,
        total: totals.total,
        paid: paidOf(state.order),
        invoice_number: invoice?.invoiceNumber ?? null,
        invoice_total: invoice?.totals.total ?? null,
        estimate_status: latestEstimate(state.order)?.status ?? null,
        revision: state.revision,
      };
    });
  const updates = Object.keys(MONEY_COLUMNS)
    .filter((column) => column !== 'job_id')
    .map((column) => `"${column}" = excluded."${column}"`)
    .join(', ');
  for (const chunk of chunked(rows, 500))
    await insertRecordset(
      ctx,
      'job_money',
      MONEY_COLUMNS,
      chunk,
      `ON CONFLICT (job_id) DO UPDATE SET ${updates} WHERE target.revision < excluded.revision`,
    );
  for (const chunk of chunked(invoices, 1000)) await insertRecordset(ctx, 'invoices', INVOICE_COLUMNS, chunk, 'ON CONFLICT DO NOTHING');
  for (const chunk of chunked(payments, 1000)) await insertRecordset(ctx, 'payments', PAYMENT_COLUMNS, chunk, 'ON CONFLICT DO NOTHING');
}

export const repairOrdersProjection: Projection = {
  name: 'repair-orders',
  eventTypes: REPAIR_ORDER_JOB_EVENT_TYPES,
  async apply(event, ctx) {
    await applyOrderEvents([event], ctx);
  },
  applyBatch: applyOrderEvents,
};
