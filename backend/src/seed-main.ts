import { jobChangesInput, jobInput, STAGES, JOB_TYPES, type Stage } from '@crm/projections/pipeline';
import { isValidTimeZone, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { SERVICE_TYPES, serviceRequestInput } from '@crm/projections/service-requests';
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
import { archiveServiceRequest, convertServiceRequest, submitServiceRequest } from './service-requests/service-request-service.ts';
import { createProjector, openStorage } from './runtime.ts';
import { systemContext, type InstanceContext } from './shared/commands.ts';
import { reservationHolder } from './shared/reservations.ts';

/**
 * `npm run seed`: a believable shop with staff, customers, jobs, appointments and service
 * requests, made through the same commands the API runs (so every record has its events and
 * history). Every job carries its customer's name, phone and vehicle and a part; jobs that
 * are booked have an appointment on a weekday between 8:00 and 17:00 in the shop's time zone
 * (past ones for work done, the coming weeks for the rest); service requests exist in every
 * state (open, from the counter and the public page; converted to a job; archived). Sizes
 * from SEED_CUSTOMERS, SEED_JOBS and SEED_REQUESTS; the instance from SEED_SUBDOMAIN (default
 * `demo`) and its zone from SEED_TIME_ZONE (default America/Chicago).
 */
const { config, logger } = startCli();
const subdomain = (process.env.SEED_SUBDOMAIN ?? 'demo').toLowerCase();
const customerCount = Number(process.env.SEED_CUSTOMERS ?? 200);
const jobCount = Number(process.env.SEED_JOBS ?? 300);
// About one request for every dozen jobs (25 with the default sizes).
const requestCount = Number(process.env.SEED_REQUESTS ?? Math.round(jobCount / 12));
const timeZone = process.env.SEED_TIME_ZONE ?? 'America/Chicago';
if (subdomain === RESERVED_INSTANCE_SUBDOMAIN || !/^[a-z0-9]+$/.test(subdomain)) {
  console.error('SEED_SUBDOMAIN must be lower-case letters and digits, and not the reserved instance');
  process.exit(2);
}
if (!isValidTimeZone(timeZone)) {
  console.error('SEED_TIME_ZONE must be an IANA time zone such as America/Chicago');
  process.exit(2);
}

/** The offset (ms) of a zone from UTC at an instant: the zone's wall clock read as if it were UTC, minus the instant. */
function zoneOffset(instant: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour') % 24, part('minute'), part('second')) - instant;
}

/** The instant a wall-clock time in a zone stands for (checked twice, so a DST change between guess and answer is caught). */
function zonedTime(year: number, month: number, day: number, hour: number, minute: number, zone: string): Date {
  const wall = Date.UTC(year, month, day, hour, minute);
  let instant = wall - zoneOffset(wall, zone);
  instant = wall - zoneOffset(instant, zone);
  return new Date(instant);
}

/** Today's date in the zone, as year, month (0-based) and day. */
function todayIn(zone: string): { year: number; month: number; day: number } {
  const shifted = new Date(Date.now() + zoneOffset(Date.now(), zone));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth(), day: shifted.getUTCDate() };
}

/**
 * A slot on the n-th working day from today (0: today, or the next weekday on a weekend;
 * negative: before today), on the hour or half hour between 8:00 and 16:30 in the shop's
 * zone. Counting weekdays (not calendar days that then slide off weekends) keeps Mondays and
 * Fridays from collecting a weekend's worth of bookings. Spread deterministically so the
 * calendar looks like weeks of real bookings, a few a day.
 */
function workingSlot(dayOffset: number, i: number, zone: string): Date {
  const { year, month, day } = todayIn(zone);
  const weekend = (d: Date) => d.getUTCDay() === 0 || d.getUTCDay() === 6;
  const step = dayOffset < 0 ? -1 : 1;
  let date = new Date(Date.UTC(year, month, day));
  while (weekend(date)) date = new Date(date.getTime() + step * 86_400_000);
  for (let left = Math.abs(dayOffset); left > 0;) {
    date = new Date(date.getTime() + step * 86_400_000);
    if (!weekend(date)) left--;
  }
  const halfHours = (i * 7) % 18; // 0..17: 8:00 .. 16:30
  return zonedTime(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), 8 + Math.floor(halfHours / 2), (halfHours % 2) * 30, zone);
}

/** Stages whose work is done: their appointment was in the past. */
const DONE_STAGES = new Set<Stage>(['Completed', 'Invoiced', 'Paid']);
/** Stages that are not booked yet: no appointment. */
const UNBOOKED_STAGES = new Set<Stage>(['Quote', 'Parts Ordered', 'Canceled']);

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
const DURATIONS = [30, 60, 60, 90, 120];
const NOTES = [
  'Grinding noise when braking.',
  'Check engine light on since last week.',
  'Wants a quote before any work.',
  'Customer will wait in the lobby.',
  '',
];
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
        description: 'Brakes, tires, engine and transmission work; parts counter open weekdays.',
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
        timeZone,
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
      const stage = pick(STAGES, i);
      // Done work was booked over the past three weeks; booked work over the coming three. The
      // day and time come from the job's rank within its stage (`round`), not from `i` alone:
      // the stage is `i` modulo the stage count, so offsets taken from `i` would put every job
      // of a stage on the same one or two days at the same time.
      const round = Math.floor(i / STAGES.length);
      const appointment = UNBOOKED_STAGES.has(stage)
        ? null
        : workingSlot(DONE_STAGES.has(stage) ? -1 - (round % 15) : round % 18, i + round, timeZone).toISOString();
      const fields = jobInput.parse({
        name: customer?.name ?? `Walk-in ${i + 1}`,
        phone: customer?.phone ?? `555${String(2_000_000 + i).slice(-7)}`,
        customerId: customer?.id,
        part: pick(PARTS, i),
        makeModel: customer?.vehicle ?? pick(VEHICLES, i),
        // Some quotes carry cents, as real ones do.
        quote: i % 3 === 0 ? `${80 + ((i * 37) % 900)}.95` : String(80 + ((i * 37) % 900)),
        stage,
        jobType: pick(JOB_TYPES, i),
        csr: 'Chris CSR',
        tech: 'Terry Tech',
        appointment,
        duration: appointment ? pick(DURATIONS, i) : null,
        notes: pick(NOTES, i),
      });
      last = (await createJob(deps, fields, ctx())).appended;
      jobProgress(i + 1, jobCount);
    }
    // Service requests in every state: open (from the counter and the public page), converted to a job, archived.
    const requestProgress = createProgress('service requests');
    for (let i = 0; i < requestCount; i++) {
      const name = `${pick(FIRST, i + 5)} ${pick(LAST, i + 3)}`;
      const vehicle = pick(VEHICLES, i + 2);
      const serviceType = pick(SERVICE_TYPES, i);
      const { year, month, day } = todayIn(timeZone);
      const wanted = new Date(Date.UTC(year, month, day + 1 + (i % 10))).toISOString().slice(0, 10);
      const fields = serviceRequestInput.parse({
        customerName: name,
        contactEmail: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
        vehicleType: vehicle,
        serviceType,
        scheduledDate: wanted,
        additionalNotes: pick(NOTES, i + 1),
      });
      const request = await submitServiceRequest(deps, fields, i % 3 === 1 ? 'public' : 'staff', ctx());
      const state = i % 4;
      if (state === 2) {
        const job = jobChangesInput.parse({
          name,
          phone: `555${String(3_000_000 + i).slice(-7)}`,
          part: serviceType,
          makeModel: vehicle,
          stage: 'Scheduled',
          appointment: workingSlot(1 + (i % 10), i + 3, timeZone).toISOString(),
          duration: 60,
          csr: 'Chris CSR',
          tech: 'Terry Tech',
        });
        await convertServiceRequest(deps, request.id, job, ctx(), timeZone);
      } else if (state === 3) {
        await archiveServiceRequest(deps, request.id, ctx());
      }
      requestProgress(i + 1, requestCount);
    }
    await settle(deps, last);
    console.log(`\nSeeded "${subdomain}" into ${describeDatabase(config)}.`);
    console.log(`Sign in at /crm/${subdomain} as admin, csr or tech (PIN 1234). The shop's time zone is ${timeZone}.`);
  }
} finally {
  await projector.stop();
  await watcher.stop();
  await storage.close();
}
