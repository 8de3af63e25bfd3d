import { randomUUID } from 'node:crypto';
import type { JobFields } from '@crm/projections/pipeline';
import { RequiredRowMissingError, type AppendResult, type RequiredRow, type StreamAppend } from '@crm/projections/eventstore/port';
import { createCustomer } from '../customers/index.ts';
import type { AppDeps } from '../deps.ts';
import { decideNewStream, type CommandResult, type InstanceContext } from '../shared/commands.ts';
import { ConflictError } from '../shared/errors.ts';
import { NumberExhaustedError } from '../shared/number-allocator.ts';
import { jobMileageAppends, newCustomerVehicleAppend, newCustomerVehicleVin, vinRefusal, vinReservation } from '../vehicles/index.ts';
import { jobDecider, jobStream, type JobEvent, type JobState } from './job-decider.ts';
import { assertCustomerOf, checkMileageOrder, newReadings, onVehicle } from './job-links.ts';
import { isRefusal, jobNumberAllocator, numberInUse, numberReservation, releaseJobNumber, typedNumberReservation } from './job-numbers.ts';

/**
 * Records a new job with its number's reservation and, for a name without a chosen customer,
 * the new customer it links, in one append: all or nothing, so a job that
 * cannot be recorded leaves no customer and no number behind (a crash included). A typed
 * number is reserved after its last release; a blank one is the next per-instance number,
 * handed out by this process's allocator and confirmed by that append (`no_stream` on the
 * number's stream), so concurrent creations never wait for each other and never share a
 * number, whichever API process serves them; a number once reserved is never handed out
 * again, even after its job is deleted.
 */
export async function createJob(
  deps: AppDeps,
  input: JobFields,
  ctx: InstanceContext,
  /**
   * `jobId`: the new job's id when the caller must know it beforehand (a conversion that may
   * be retried: a second try finds the job). `newCustomer`: more of the customer the job
   * makes when it names no existing one (a service request's email).
   */
  options: { jobId?: string; mileageLowerReason?: string; newCustomer?: { email?: string } } = {},
): Promise<{ jobId: string; appended: AppendResult }> {
  const { instanceId } = ctx;
  const jobId = options.jobId ?? randomUUID();
  checkMileageOrder(input);
  if (input.vehicleId) input = { ...input, ...(await onVehicle(deps.store, instanceId, input.vehicleId, input)) };
  // Where appends write rows inline the customer's row is required in the append's own
  // message (no read of its stream first); elsewhere its stream says where it stands.
  const customerRow = input.customerId && deps.store.projectsInline ? customerRowOf(instanceId, input.customerId) : null;
  if (input.customerId && !customerRow) await assertCustomerOf(deps.store, instanceId, input.customerId);
  const mileage = input.vehicleId
    ? await jobMileageAppends(deps.store, ctx, {
        vehicleId: input.vehicleId,
        jobId,
        readings: newReadings(input, null),
        lowerReason: options.mileageLowerReason,
      })
    : [];

  const record = async (jobNumber: string, reservation: StreamAppend): Promise<CommandResult<JobState, JobEvent>> => {
    const decide = (customerId: string | null, vehicleId = input.vehicleId) =>
      decideNewStream({
        streamId: jobStream(jobId),
        decider: jobDecider,
        command: { type: 'CreateJob', jobId, instanceId, fields: { ...input, jobNumber, customerId, vehicleId } },
        ctx,
      });
    // A new customer's vehicle record takes the job's VIN when it checks out, and a VIN names one car: another vehicle's is a 409.
    const vehicleId = randomUUID();
    const newVin = !input.customerId && input.name && !input.vehicleId ? newCustomerVehicleVin(input.vin) : '';
    const vinHold = newVin ? await vinReservation(deps, ctx, newVin, vehicleId) : null;
    try {
      if (!input.customerId && input.name) {
        let job: ReturnType<typeof decide> | undefined;
        // Where the job's append stands among the customer's companions (after the number, and the vehicle when one is made).
        let jobAt = 1;
        const customer = await createCustomer(
          deps,
          {
            name: input.name,
            phone: input.phone,
            vehicles: input.makeModel ? [input.makeModel] : [],
            ...(options.newCustomer?.email ? { email: options.newCustomer.email } : {}),
          },
          ctx,
          (customerId) => {
            // The vehicle typed for a new customer becomes their vehicle record, the job on it.
            const vehicle = input.vehicleId
              ? null
              : newCustomerVehicleAppend(ctx, {
                  vehicleId,
                  customerId,
                  text: input.makeModel,
                  vin: input.vin,
                  jobId,
                  readings: newReadings(input, null),
                });
            job = decide(customerId, vehicle ? vehicleId : input.vehicleId);
            const companions = [reservation, ...(vehicle ? [vehicle, ...(vinHold ? [vinHold] : [])] : []), job.append, ...mileage];
            jobAt = companions.indexOf(job.append);
            return companions;
          },
        );
        return job!.result(customer.alongside[jobAt]!);
      }
      const job = decide(input.customerId);
      const appends = [reservation, job.append, ...mileage];
      const [, appended] = customerRow
        ? await appendForCustomer(deps, appends, customerRow, () => assertCustomerOf(deps.store, instanceId, input.customerId!))
        : await deps.store.appendMany(appends);
      return job.result(appended!);
    } catch (error) {
      // EventStoreDB appends in order: a job that failed after its number was reserved frees it again.
      if (!deps.store.atomicMultiStream && !isRefusal(error, reservation)) {
        await releaseJobNumber(deps.store, instanceId, jobNumber, jobId, ctx);
      }
      throw (await vinRefusal(deps, instanceId, error, newVin, vehicleId)) ?? error;
    }
  };

  let result: CommandResult<JobState, JobEvent> | undefined;
  if (input.jobNumber) {
    const reservation = await typedNumberReservation(deps.store, instanceId, input.jobNumber, jobId, ctx);
    try {
      result = await record(input.jobNumber, reservation);
    } catch (error) {
      if (isRefusal(error, reservation)) throw numberInUse(input.jobNumber);
      throw error;
    }
  } else {
    try {
      await jobNumberAllocator(deps).allocate(instanceId, async (candidate) => {
        const reservation = numberReservation(instanceId, String(candidate), jobId, ctx, null);
        try {
          result = await record(String(candidate), reservation);
          return true;
        } catch (error) {
          if (isRefusal(error, reservation)) return false;
          throw error;
        }
      });
    } catch (error) {
      if (error instanceof NumberExhaustedError) throw new ConflictError('Could not assign a job number. Please try again.');
      throw error;
    }
  }
  return { jobId, appended: result!.appended! };
}

/** The customer's row in the read model (live customers of the instance only: deleted and merged-away ones have none). */
const customerRowOf = (instanceId: string, customerId: string): RequiredRow => ({
  table: 'customers',
  where: { id: customerId.toLowerCase(), instance_id: instanceId },
});

/**
 * Appends a job for a chosen customer with the customer's row required in the same message.
 * No row is not yet a refusal: a customer merged away has none (its jobs may still be made
 * on it), and neither has one whose row trails its stream; its stream then decides (a 404
 * for a deleted customer or another instance's), and a customer it clears is appended for
 * without the row.
 */
async function appendForCustomer(
  deps: AppDeps,
  appends: StreamAppend[],
  customerRow: RequiredRow,
  checkStream: () => Promise<void>,
): Promise<AppendResult[]> {
  try {
    return await deps.store.appendMany(appends, { requires: [customerRow] });
  } catch (error) {
    if (!(error instanceof RequiredRowMissingError)) throw error;
    await checkStream();
    return await deps.store.appendMany(appends);
  }
}
