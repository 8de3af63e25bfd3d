import { randomBytes, randomUUID } from 'node:crypto';
import { readableEvents, type StoredDomainEvent } from '@crm/projections/events';
import { JOB_MESSAGES } from '@crm/projections/pipeline';
import { quoteCents, repairOrderFromEvents, repairOrderView, type JobDetail } from '@crm/projections/repair-orders';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { jobAsOf, jobStream, jobViewFromEvents, type JobTarget } from '../pipeline/index.ts';
import { executeCommand, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError, StaleRecordError } from '../shared/errors.ts';
import { NumberAllocator, NumberExhaustedError } from '../shared/number-allocator.ts';
import { type AsOf, readStreamAsOf } from '../shared/time-travel.ts';
import { toNewEvents } from '../shared/commands.ts';
import { WrongExpectedVersionError } from '@crm/projections/eventstore/port';
import { repairOrderDecider, type RepairOrderCommand, type RepairOrderState } from './repair-order-decider.ts';
import { highestInvoiceNumber } from './repair-order-queries.ts';

/** A job's quote in cents as its view holds it (decimal text; '' is none: 0). */
export const jobQuoteCents = (job: { quote: string }): number => (job.quote === '' ? 0 : Math.round(Number(job.quote) * 100));

/** The job with its repair order, folded from its stream; null when it is no job of this instance (or deleted). */
export function jobDetailFromEvents(events: readonly StoredDomainEvent[], instanceId: string, now: Date): JobDetail | null {
  const job = jobViewFromEvents([...events], instanceId);
  if (!job) return null;
  const order = repairOrderFromEvents(events);
  const view = repairOrderView(order, jobQuoteCents(job), now);
  return { ...job, ...view };
}

/** The job with its repair order as its stream has it now, or at `asOf`. */
export async function loadJobDetail(deps: Pick<AppDeps, 'store'>, target: JobTarget, now: Date, asOf: AsOf | null = null) {
  const recorded = await readStreamAsOf(deps.store, jobStream(target.jobId), asOf);
  const events = readableEvents(recorded).events;
  return { detail: jobDetailFromEvents(events, target.instanceId, now), events };
}

/**
 * Runs a repair-order command on the job's stream. With If-Match (`expectedRevision`), a
 * job changed meanwhile is a 409 carrying the job as it is now.
 */
export async function runRepairOrderCommand(
  deps: Pick<AppDeps, 'store'>,
  target: JobTarget,
  command: RepairOrderCommand,
  ctx: InstanceContext,
  expectedRevision?: number,
): Promise<CommandResult<RepairOrderState, Parameters<typeof repairOrderDecider.evolve>[1]>> {
  try {
    return await executeCommand({
      store: deps.store,
      streamId: jobStream(target.jobId),
      decider: repairOrderDecider,
      command,
      ctx,
      expectedRevision,
    });
  } catch (error) {
    if (expectedRevision !== undefined && error instanceof ConflictError && !(error instanceof StaleRecordError)) {
      const current = await jobAsOf(deps.store, target, null);
      if (!current) throw new NotFoundError(JOB_MESSAGES.notFound);
      if (current.revision !== expectedRevision) throw new StaleRecordError('job', current);
    }
    throw error;
  }
}

/** The command's answer: the job with its repair order once the projector has its events (read-your-writes). */
export async function answerOf(
  deps: AppDeps,
  target: JobTarget,
  result: { appended: { position: unknown } | null; stream: StoredDomainEvent[] | null },
): Promise<JobDetail> {
  await settle(deps, result.appended as Parameters<typeof settle>[1]);
  const detail = result.stream
    ? jobDetailFromEvents(result.stream, target.instanceId, deps.now())
    : (await loadJobDetail(deps, target, deps.now())).detail;
  if (!detail) throw new NotFoundError(JOB_MESSAGES.notFound);
  return detail;
}

// ---- estimate tokens ---------------------------------------------------------------------

/**
 * An estimate link's token: the job's id (32 hex digits) and 32 random characters
 * (192 bits). The job id finds the stream in one read; the random part is what must match,
 * so a token opens its own job's estimate and nothing else, in whatever shop.
 */
export function newEstimateToken(jobId: string): string {
  return `${jobId.replaceAll('-', '').toLowerCase()}${randomBytes(24).toString('base64url')}`;
}

export function jobIdOfToken(token: string): string | null {
  const match = /^([0-9a-f]{32})[A-Za-z0-9_-]{32}$/.exec(token);
  if (!match) return null;
  const hex = match[1]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// ---- invoice numbers -----------------------------------------------------------------------

export const invoiceNumberStream = (instanceId: string, invoiceNumber: number) => `invoicenumber-${instanceId}-${invoiceNumber}`;

/** The first invoice number of a shop. */
export const FIRST_INVOICE_NUMBER = 1001;

const allocators = new WeakMap<object, NumberAllocator>();

/**
 * The shop's next invoice number, reserved (stream `invoicenumber-{instanceId}-{n}`
 * appended with no_stream, like job numbers): unique per instance across API processes.
 * An invoice that then fails leaves a gap.
 */
export async function reserveInvoiceNumber(deps: Pick<AppDeps, 'store' | 'knex'>, ctx: InstanceContext, jobId: string): Promise<number> {
  let allocator = allocators.get(deps.store);
  if (!allocator) {
    allocator = new NumberAllocator({
      highest: async (instanceId) => Math.max(FIRST_INVOICE_NUMBER - 1, await highestInvoiceNumber(deps.knex, instanceId)),
    });
    allocators.set(deps.store, allocator);
  }
  try {
    return await allocator.allocate(ctx.instanceId, async (candidate) => {
      const streamId = invoiceNumberStream(ctx.instanceId, candidate);
      const events = toNewEvents(
        [{ type: 'InvoiceNumberReserved', data: { instanceId: ctx.instanceId, invoiceNumber: candidate, jobId } }],
        ctx,
      );
      try {
        await deps.store.append(streamId, events, { expectedRevision: 'no_stream' });
        return true;
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) return false;
        throw error;
      }
    });
  } catch (error) {
    if (error instanceof NumberExhaustedError) throw new ConflictError('Could not assign an invoice number. Please try again.');
    throw error;
  }
}

export const newPaymentId = () => randomUUID();
export const newLineId = () => randomUUID();
export { quoteCents };
