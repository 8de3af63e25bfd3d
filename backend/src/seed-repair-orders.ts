import { lineInput, shopSettingsInput } from '@crm/projections/contract';
import type { AppDeps } from './deps.ts';
import { loadAggregate, type InstanceContext } from './shared/commands.ts';
import { jobStream } from './pipeline/index.ts';
import {
  repairOrderDecider,
  type RepairOrderCommand,
  newEstimateToken,
  newLineId,
  newPaymentId,
  reserveInvoiceNumber,
  runRepairOrderCommand,
  loadShopSettings,
  ratesOf,
  updateShopSettings,
} from './repair-orders/index.ts';
import { balanceOf, quoteCents } from '@crm/projections/repair-orders';

/**
 * The seed's repair orders, through the same commands the API runs: the shop's settings,
 * lines on a job, an estimate sent and the customer's decision, the invoice and payments.
 * Each takes the command's context (its clock is the seeded time).
 */

const PAYMENT_METHODS = ['card', 'cash', 'card', 'check'] as const;

export async function seedShopSettings(deps: AppDeps, ctx: InstanceContext): Promise<void> {
  await updateShopSettings(
    deps,
    shopSettingsInput.parse({
      shopName: 'Demo Auto Service',
      address: '100 Main St, Springfield',
      phone: '555-010-0100',
      email: 'service@demo-auto.example',
      laborRate: '120',
      partsTaxRate: '8.25',
      laborTaxRate: '0',
      terms: 'Payment due on pickup. Parts carry a 12-month warranty.',
      documentFooter: 'Thank you for your business.',
    }),
    ctx,
  );
}

const run = async (deps: AppDeps, jobId: string, command: RepairOrderCommand, ctx: InstanceContext) =>
  runRepairOrderCommand(deps, { instanceId: ctx.instanceId, jobId }, command, ctx);

/** A part (the job's part), labor and, for some jobs, a shop-supplies fee. */
export async function seedLines(deps: AppDeps, jobId: string, part: string, i: number, ctx: InstanceContext): Promise<void> {
  const shop = ratesOf((await loadShopSettings(deps, ctx.instanceId)).settings);
  const lines = [
    {
      kind: 'part',
      description: part,
      partNumber: `P-${1000 + ((i * 37) % 9000)}`,
      quantity: String(1 + (i % 2)),
      unitPrice: `${20 + ((i * 53) % 280)}.${i % 2 ? '95' : '00'}`,
    },
    { kind: 'labor', description: `Install ${part.toLowerCase()}`, hours: String(1 + (i % 5) * 0.5), technician: 'Terry Tech' },
    ...(i % 3 === 0 ? [{ kind: 'fee', description: 'Shop supplies', amount: '12.50' }] : []),
  ];
  for (const line of lines) {
    await run(deps, jobId, { type: 'AddLine', instanceId: ctx.instanceId, lineId: newLineId(), line: lineInput.parse(line), shop }, ctx);
  }
}

/** The estimate sent to the customer (a link good for 14 days). */
export async function seedEstimateSent(deps: AppDeps, jobId: string, ctx: InstanceContext): Promise<void> {
  const expiresAt = new Date(ctx.now.getTime() + 14 * 86_400_000).toISOString();
  await run(deps, jobId, { type: 'SendEstimate', instanceId: ctx.instanceId, token: newEstimateToken(jobId), expiresAt }, ctx);
}

/** The customer's answer on the estimate page: every line approved, or the fee declined on some jobs. */
export async function seedEstimateDecided(deps: AppDeps, jobId: string, customerName: string, i: number, ctx: InstanceContext) {
  const { state } = await loadAggregate(deps.store, jobStream(jobId), repairOrderDecider);
  const estimate = state.order.estimates.at(-1);
  if (!estimate || estimate.status !== 'sent') return;
  const declined = i % 4 === 0 ? estimate.lines.filter((line) => line.kind === 'fee').map((line) => line.id) : [];
  const approved = estimate.lines.map((line) => line.id).filter((id) => !declined.includes(id));
  const customer = { ...ctx, actor: { kind: 'system' as const, id: 'estimate-page', displayName: `${customerName} (customer)` } };
  await run(
    deps,
    jobId,
    {
      type: 'DecideEstimate',
      instanceId: ctx.instanceId,
      token: estimate.token,
      approvedLineIds: approved,
      declinedLineIds: declined,
      customerName,
      address: '203.0.113.10',
      now: ctx.now,
    },
    customer,
  );
}

/** The invoice (the shop's next number); it moves the job to Invoiced. */
export async function seedInvoice(deps: AppDeps, jobId: string, ctx: InstanceContext): Promise<void> {
  const invoiceNumber = await reserveInvoiceNumber(deps, ctx, jobId);
  await run(deps, jobId, { type: 'IssueInvoice', instanceId: ctx.instanceId, invoiceNumber }, ctx);
}

/** A payment of `share` of the balance due (1: all of it, which moves the job to Paid). */
export async function seedPayment(deps: AppDeps, jobId: string, share: number, i: number, ctx: InstanceContext): Promise<void> {
  const { state } = await loadAggregate(deps.store, jobStream(jobId), repairOrderDecider);
  if (state.job.status !== 'open') return;
  const balance = balanceOf(state.order, quoteCents(state.job.fields.quote));
  const amount = share >= 1 ? balance : Math.round(balance * share);
  if (amount <= 0) return;
  const method = PAYMENT_METHODS[i % PAYMENT_METHODS.length]!;
  await run(
    deps,
    jobId,
    {
      type: 'RecordPayment',
      instanceId: ctx.instanceId,
      paymentId: newPaymentId(),
      amount,
      method,
      reference: method === 'card' ? `VISA ${String(1000 + ((i * 71) % 9000))}` : method === 'check' ? `#${2000 + i}` : '',
      reason: '',
      receivedAt: ctx.now.toISOString(),
    },
    ctx,
  );
}
