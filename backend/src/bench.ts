import path from 'node:path';
import { customerInput } from '@crm/projections/customers';
import type { DomainEvent } from '@crm/projections/events';
import { jobInput } from '@crm/projections/pipeline';
import { runBench } from './bench/run.ts';
import { parseOptions } from './bench/options.ts';
import type { SeedDomain } from './bench/seed.ts';
import { customerDecider, customerStream } from './customers/customer-decider.ts';
import { jobCounterStream, jobDecider, jobStream } from './pipeline/job-decider.ts';
import { toNewEvents, type InstanceContext } from './shared/commands.ts';

/**
 * `npm run bench` (see bench/run.ts). This entry is the composition root: it hands the
 * benchmark's bulk seeding the real deciders and event factory, so seeded records are the
 * events the commands would record.
 */

const context = (instanceId: string, at: Date): InstanceContext => ({
  instanceId,
  actor: { kind: 'system', id: 'bench', displayName: 'Bench Seeder' },
  correlationId: 'bench-seed',
  now: at,
});

const domain: SeedDomain = {
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

runBench(domain, parseOptions(process.argv.slice(2)), path.resolve(import.meta.dirname, '../..')).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('The benchmark failed:', error);
    process.exit(1);
  },
);
