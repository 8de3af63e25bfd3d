import { customerInput } from '@crm/projections/customers';
import type { DomainEvent } from '@crm/projections/events';
import { jobInput } from '@crm/projections/pipeline';
import { EMPTY_VEHICLE_FIELDS, parseVehicleLabel } from '@crm/projections/vehicles';
import { customerDecider, customerStream } from './customers/index.ts';
import { jobCounterStream, jobDecider, jobStream } from './pipeline/index.ts';
import { toNewEvents, type InstanceContext } from './shared/commands.ts';
import { vehicleDecider, vehicleStream } from './vehicles/index.ts';
import type { SeedDomain } from './bench/index.ts';

/** Who the seeded events say recorded them (a system actor; the correlation id ties one seeding run together). */
export interface SeedActor {
  id: string;
  displayName: string;
  correlationId: string;
}

/**
 * Bulk seeding through the real deciders and event factory, so seeded records are exactly the
 * events the commands would record. Kept apart from bench/seed.ts so the seeding mechanics stay free of
 * the domain: the benchmark's entry and the reliability tests each hand this in as their SeedDomain.
 */
export function deciderSeedDomain(actor: SeedActor): SeedDomain {
  const context = (instanceId: string, at: Date): InstanceContext => ({
    instanceId,
    actor: { kind: 'system', id: actor.id, displayName: actor.displayName },
    correlationId: actor.correlationId,
    now: at,
  });

  return {
    customer(seed) {
      const fields = customerInput.parse({
        name: seed.name,
        phone: seed.phone,
        email: seed.email,
        address: seed.address,
        vehicles: seed.vehicles,
        invoices: seed.invoices,
      });
      const events = customerDecider.decide(
        { type: 'CreateCustomer', customerId: seed.customerId, instanceId: seed.instanceId, number: seed.number, fields },
        customerDecider.initialState,
      );
      return { streamId: customerStream(seed.customerId), events: toNewEvents(events, context(seed.instanceId, seed.at)) };
    },
    vehicle(seed) {
      const fields = { ...EMPTY_VEHICLE_FIELDS, ...parseVehicleLabel(seed.text), plate: seed.plate };
      const events = vehicleDecider.decide(
        { type: 'CreateVehicle', vehicleId: seed.vehicleId, instanceId: seed.instanceId, customerId: seed.customerId, fields },
        vehicleDecider.initialState,
      );
      return { streamId: vehicleStream(seed.vehicleId), events: toNewEvents(events, context(seed.instanceId, seed.at)) };
    },
    job(seed) {
      const fields = jobInput.parse({
        name: seed.name,
        phone: seed.phone,
        customerId: seed.customerId || undefined,
        part: seed.part,
        makeModel: seed.makeModel,
        quote: seed.quote,
        stage: seed.stage,
        jobType: seed.jobType,
        csr: seed.csr,
        tech: seed.tech,
        ...(seed.appointment ? { appointment: seed.appointment, duration: seed.duration } : {}),
      });
      const events = jobDecider.decide(
        { type: 'CreateJob', jobId: seed.jobId, instanceId: seed.instanceId, fields: { ...fields, jobNumber: seed.jobNumber } },
        jobDecider.initialState,
      );
      return { streamId: jobStream(seed.jobId), events: toNewEvents(events, context(seed.instanceId, seed.at)) };
    },
    jobCounter(instanceId, number, at) {
      const events: DomainEvent[] = [{ type: 'JobNumberAssigned', data: { instanceId, number } }];
      return { streamId: jobCounterStream(instanceId), events: toNewEvents(events, context(instanceId, at)) };
    },
  };
}
