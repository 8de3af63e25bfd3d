import { jobInput, STAGES, JOB_TYPES } from '@crm/projections/pipeline';
import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { createProgress, startCli } from './cli.ts';
import { describeDatabase } from './infra/database.ts';
import { createCustomer } from './customers/customer-service.ts';
import type { AppDeps } from './deps.ts';
import { settle } from './deps.ts';
import { createUser } from './identity/user-service.ts';
import { subdomainStream } from './platform/instance-decider.ts';
import { recordInstance } from './platform/instances.ts';
import { createJob } from './pipeline/job-service.ts';
import { createProjector, openStorage } from './runtime.ts';
import { systemContext, type InstanceContext } from './shared/commands.ts';
import { reservationHolder } from './shared/reservations.ts';

/**
 * `npm run seed`: a demo instance with staff, customers and jobs, made through the same
 * commands the API runs (so every record has its events and history). Sizes from
 * SEED_CUSTOMERS and SEED_JOBS; the instance from SEED_SUBDOMAIN (default `demo`).
 */
const { config, logger } = startCli();
const subdomain = (process.env.SEED_SUBDOMAIN ?? 'demo').toLowerCase();
const customerCount = Number(process.env.SEED_CUSTOMERS ?? 200);
const jobCount = Number(process.env.SEED_JOBS ?? 300);
if (subdomain === RESERVED_INSTANCE_SUBDOMAIN || !/^[a-z0-9]+$/.test(subdomain)) {
  console.error('SEED_SUBDOMAIN must be lower-case letters and digits, and not the reserved instance');
  process.exit(2);
}

const storage = await openStorage(config, logger);
const watcher = new CheckpointWatcher(storage.knex, storage.databaseUrl);
await watcher.start();
// Projects what we write; on standby (and harmless) when a running server already projects.
const projector = createProjector(storage, logger);
projector.start();
const deps: AppDeps = { config, logger, knex: storage.knex, store: storage.store, watcher, now: () => new Date() };

const FIRST = ['Alex', 'Sam', 'Jordan', 'Casey', 'Riley', 'Morgan', 'Taylor', 'Jamie', 'Drew', 'Quinn', 'Avery', 'Parker'];
const LAST = ['Garcia', 'Nguyen', 'Smith', 'Patel', 'Johnson', 'Kim', 'Lopez', 'Brown', 'Davis', 'Wilson', 'Moore', 'Clark'];
const VEHICLES = [
  '2018 Toyota Camry',
  '2015 Ford F-150',
  '2020 Honda Civic',
  '2012 Jeep Wrangler',
  '2019 Subaru Outback',
  '2016 Chevy Silverado',
];
const PARTS = ['Brake pads', 'Alternator', 'Timing belt', 'Water pump', 'Starter motor', 'Oil change', 'Tire rotation', 'Radiator'];
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

try {
  if (await reservationHolder(deps.store, subdomainStream(subdomain))) {
    console.error(`An instance with subdomain "${subdomain}" exists already; set SEED_SUBDOMAIN to seed another one.`);
    process.exitCode = 1;
  } else {
    const system = systemContext(new Date(), 'seed', 'Seed');
    const { instanceId } = await recordInstance(
      deps,
      {
        name: subdomain.toUpperCase(),
        subdomain,
        displayName: 'Demo Auto Service',
        description: 'Seeded demo data',
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
        firstAdmin: { username: 'admin', displayName: 'Dana Admin', pin: '1234' },
      },
      system,
    );
    const ctx = (): InstanceContext => ({ ...system, instanceId, now: new Date() });
    for (const [username, displayName] of [
      ['csr', 'Chris CSR'],
      ['tech', 'Terry Tech'],
    ] as const) {
      await createUser(deps, { instanceId, username, displayName, pin: '1234', role: 'user' }, ctx());
    }
    const customerProgress = createProgress('customers');
    const customers: Array<{ id: string; name: string; phone: string; vehicle: string }> = [];
    for (let i = 0; i < customerCount; i++) {
      const name = `${pick(FIRST, i)} ${pick(LAST, Math.floor(i / FIRST.length))}`;
      const phone = `555${String(1_000_000 + i).slice(-7)}`;
      const vehicle = pick(VEHICLES, i);
      const { customerId } = await createCustomer(
        deps,
        { name, phone, address: `${100 + i} Main St`, vehicles: [vehicle], invoices: [`INV-${1000 + i}`] },
        ctx(),
      );
      customers.push({ id: customerId, name, phone, vehicle });
      customerProgress(i + 1, customerCount);
    }
    const jobProgress = createProgress('jobs');
    let last = null;
    for (let i = 0; i < jobCount; i++) {
      // A job carries its customer's name, phone and vehicle, as the entry dialog fills them in.
      const customer = customers.length ? customers[i % customers.length]! : null;
      const fields = jobInput.parse({
        name: customer?.name ?? `Walk-in ${i + 1}`,
        phone: customer?.phone ?? '',
        customerId: customer?.id,
        part: pick(PARTS, i),
        makeModel: customer?.vehicle ?? pick(VEHICLES, i),
        // Some quotes carry cents, as real ones do.
        quote: i % 3 === 0 ? `${80 + ((i * 37) % 900)}.95` : String(80 + ((i * 37) % 900)),
        stage: pick(STAGES, i),
        jobType: pick(JOB_TYPES, i),
        csr: 'Chris CSR',
        tech: 'Terry Tech',
        appointment: new Date(Date.now() + ((i % 14) - 3) * 24 * 3600_000 + (8 + (i % 9)) * 3600_000).toISOString(),
        duration: 60,
      });
      last = (await createJob(deps, fields, ctx())).appended;
      jobProgress(i + 1, jobCount);
    }
    await settle(deps, last);
    console.log(`\nSeeded "${subdomain}" into ${describeDatabase(config)}.`);
    console.log(`Sign in at /crm/${subdomain} as admin, csr or tech (PIN 1234).`);
  }
} finally {
  await projector.stop();
  await watcher.stop();
  await storage.close();
}
