import { setTimeout as sleep } from 'node:timers/promises';
import { jobChangesInput, jobInput, STAGES, JOB_TYPES, WORK_DONE_STAGES, type Stage } from '@crm/projections/pipeline';
import { isValidTimeZone, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { SERVICE_TYPES, serviceRequestInput } from '@crm/projections/service-requests';
import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { projections } from '@crm/projections/read-models';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { createProgress, startCli } from './cli.ts';
import { describeDatabase } from './infra/database.ts';
import { createCustomer } from './customers/index.ts';
import type { AppDeps } from './deps.ts';
import { settle } from './deps.ts';
import { createUser, recordFirstAdmin } from './identity/index.ts';
import { addVehicle } from './vehicles/index.ts';
import { subdomainStream, recordInstance, updateInstance } from './platform/index.ts';
import { cancelJob, changeJobStage, createJob } from './pipeline/index.ts';
import { archiveServiceRequest, convertServiceRequest, submitServiceRequest } from './service-requests/index.ts';
import { createProjector, openStorage } from './runtime.ts';
import { systemContext, type InstanceContext } from './shared/commands.ts';
import { reservationHolder } from './shared/reservations.ts';
import { seedEstimateDecided, seedEstimateSent, seedInvoice, seedLines, seedPayment, seedShopSettings } from './seed-repair-orders.ts';

/**
 * `npm run seed`: a believable shop with staff, customers, jobs, appointments and service
 * requests, made through the same commands the API runs (so every record has its events and
 * history). Every job carries its customer's name, phone and vehicle and a part; jobs that
 * are booked have an appointment on a weekday between 8:00 and 17:00 in the shop's time zone
 * (past ones for work done, the coming weeks for the rest); service requests exist in every
 * state (open, from the counter and the public page; converted to a job; archived). Sizes
 * from SEED_CUSTOMERS, SEED_JOBS and SEED_REQUESTS; the instance from SEED_SUBDOMAIN (default
 * `demo`) and its zone from SEED_TIME_ZONE (default America/Chicago). Most jobs are itemized
 * (parts, labor, a fee), with estimates sent and answered, invoices and payments over the
 * months of history (seed-repair-orders.ts).
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

/** A stage path in order: every job walks it from Quote to where it stands now (Canceled: Quote, then canceled). */
const WORK_STAGES = STAGES.filter((stage) => stage !== 'Canceled');

/**
 * One thing that happened in the shop, at its time, by one of its people. The seed lists them
 * all, then runs them oldest first through the real commands, each with its own time as the
 * command's clock; the events' recorded times are then set to those times (as an import keeps
 * them) and the read models rebuilt, so the history spans months. More kinds of records (repair
 * orders, invoices, payments) are added as more actions on the same timeline.
 */
interface SeedAction {
  at: Date;
  by: SeedActor;
  run: (ctx: InstanceContext) => Promise<unknown>;
}
type SeedActor = 'admin' | 'csr' | 'tech';

/** How far back the shop's history goes (working days). */
const HISTORY_DAYS = Number(process.env.SEED_HISTORY_DAYS ?? 90);

/** `at`, or a few minutes after `before` when that is later: one record's steps keep their order. */
function after(before: Date | null, at: Date): Date {
  return before && at.getTime() <= before.getTime() ? new Date(before.getTime() + 5 * 60_000) : at;
}

/** A past instant: `daysAgo` working days before today (at least 1), in working hours, spread by `i`. */
function pastSlot(daysAgo: number, i: number): Date {
  return workingSlot(-Math.max(1, Math.round(daysAgo)), i, timeZone);
}

try {
  if (await reservationHolder(deps.store, subdomainStream(subdomain))) {
    console.error(`An instance with subdomain "${subdomain}" exists already; set SEED_SUBDOMAIN to seed another one.`);
    process.exitCode = 1;
  } else {
    const seedStarted = new Date();
    const opened = pastSlot(HISTORY_DAYS + 5, 0);
    const system = systemContext(opened, 'seed', 'Seed');
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
      recordFirstAdmin,
    );
    const adminUser = await userIdOf(instanceId, 'admin');
    const actors: Record<SeedActor, { id: string; displayName: string }> = {
      admin: { id: adminUser, displayName: 'Dana Admin' },
      csr: { id: '', displayName: 'Chris CSR' },
      tech: { id: '', displayName: 'Terry Tech' },
    };
    const ctxAt = (at: Date, by: SeedActor): InstanceContext => ({
      instanceId,
      actor: { kind: 'user', id: actors[by].id, displayName: actors[by].displayName },
      correlationId: `seed-${at.getTime()}`,
      now: at,
    });
    for (const [username, displayName] of [
      ['csr', 'Chris CSR'],
      ['tech', 'Terry Tech'],
    ] as const) {
      const { userId } = await createUser(deps, { instanceId, username, displayName, pin: '1234', role: 'user' }, ctxAt(opened, 'admin'));
      actors[username].id = userId;
    }
    // The shop takes requests on its public page (the requests below came from there too).
    await updateInstance(deps, instanceId, { publicRequests: true }, ctxAt(opened, 'admin'));
    // The shop's rates and what its documents say.
    await seedShopSettings(deps, ctxAt(opened, 'admin'));

    const timeline: SeedAction[] = [];
    const customers: Array<{ id: string; name: string; phone: string; vehicle: string; vehicleId: string; since: number; at: Date }> = [];
    for (let i = 0; i < customerCount; i++) {
      const name = `${pick(FIRST, i)} ${pick(LAST, Math.floor(i / FIRST.length))}`;
      const phone = `555${String(1_000_000 + i).slice(-7)}`;
      const vehicle = pick(VEHICLES, i);
      // Customers arrive over the whole history, the first ones at the start.
      const since = HISTORY_DAYS - Math.floor((i * HISTORY_DAYS) / Math.max(1, customerCount));
      const customer = { id: '', name, phone, vehicle, vehicleId: '', since, at: pastSlot(since, i) };
      customers.push(customer);
      timeline.push({
        at: customer.at,
        by: 'csr',
        run: async (ctx) => {
          const { customerId } = await createCustomer(
            deps,
            { name, phone, address: `${100 + i} Main St`, vehicles: [vehicle], invoices: [`INV-${1000 + i}`] },
            ctx,
          );
          customer.id = customerId;
          // Its car as a vehicle record too, so the jobs, the vehicle page and the customer's
          // vehicles agree with the "2018 Toyota Camry" its jobs name.
          const [year, make, ...model] = vehicle.split(' ');
          const plate = `DM${String(1000 + i).slice(-4)}`;
          customer.vehicleId = (await addVehicle(deps, customerId, { year: Number(year), make, model: model.join(' '), plate }, ctx)).id;
        },
      });
    }

    for (let i = 0; i < jobCount; i++) {
      // A job carries its customer's name, phone and vehicle, as the entry dialog fills them in.
      const customer = customers.length ? customers[i % customers.length]! : null;
      const finalStage = pick(STAGES, i);
      const round = Math.floor(i / STAGES.length);
      // Asked for some time after the customer came (or at any time, for walk-ins), spread over the history.
      const oldest = customer ? customer.since : HISTORY_DAYS;
      const createdDaysAgo = Math.max(2, oldest - ((i * 7) % Math.max(1, oldest)));
      const path: Stage[] = finalStage === 'Canceled' ? ['Quote'] : WORK_STAGES.slice(0, WORK_STAGES.indexOf(finalStage) + 1);
      // Each later stage a working day or few after the one before, all before today.
      const gap = Math.max(1, Math.min(4, Math.floor((createdDaysAgo - 1) / Math.max(1, path.length))));
      const stageDays = path.map((_, step) => createdDaysAgo - step * gap);
      const doneAt = finalStage === 'Canceled' ? null : stageDays[Math.min(path.length - 1, WORK_STAGES.indexOf('Completed'))]!;
      const appointment = UNBOOKED_STAGES.has(finalStage)
        ? null
        : WORK_DONE_STAGES.has(finalStage) && doneAt !== null
          ? pastSlot(doneAt, i + round)
          : workingSlot(round % 18, i + round, timeZone);
      const job = { id: '' };
      // After its customer's record exists, so the job links to it (and never makes a second one).
      let last = after(customer?.at ?? null, pastSlot(createdDaysAgo, i + 1));
      timeline.push({
        at: last,
        by: 'csr',
        run: async (ctx) => {
          const fields = jobInput.parse({
            name: customer?.name ?? `Walk-in ${i + 1}`,
            phone: customer?.phone ?? `555${String(2_000_000 + i).slice(-7)}`,
            customerId: customer?.id,
            vehicleId: customer?.vehicleId || undefined,
            part: pick(PARTS, i),
            makeModel: customer?.vehicle ?? pick(VEHICLES, i),
            // Some quotes carry cents, as real ones do.
            quote: i % 3 === 0 ? `${80 + ((i * 37) % 900)}.95` : String(80 + ((i * 37) % 900)),
            stage: 'Quote',
            jobType: pick(JOB_TYPES, i),
            csr: 'Chris CSR',
            tech: 'Terry Tech',
            appointment: appointment?.toISOString() ?? null,
            duration: appointment ? pick(DURATIONS, i) : null,
            notes: pick(NOTES, i),
          });
          job.id = (await createJob(deps, fields, ctx)).jobId;
        },
      });
      // Most jobs are itemized: lines, then (past Quote, and some quotes) an estimate the
      // customer answers; invoicing and payment move them to Invoiced and Paid.
      const itemized = i % 5 !== 4;
      const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);
      if (itemized) {
        last = minutes(last, 30);
        timeline.push({ at: last, by: 'csr', run: (ctx) => seedLines(deps, job.id, pick(PARTS, i), i, ctx) });
        if (finalStage !== 'Canceled' && (path.length > 1 || i % 2 === 0)) {
          last = minutes(last, 30);
          timeline.push({ at: last, by: 'csr', run: (ctx) => seedEstimateSent(deps, job.id, ctx) });
          // Some quotes wait for their answer.
          if (path.length > 1 || i % 4 !== 0) {
            const name = customer?.name ?? `Walk-in ${i + 1}`;
            timeline.push({ at: minutes(last, 120), by: 'csr', run: (ctx) => seedEstimateDecided(deps, job.id, name, i, ctx) });
          }
        }
      }
      path.slice(1).forEach((stage, step) => {
        last = after(last, pastSlot(stageDays[step + 1]!, i + step + 2));
        timeline.push({
          at: last,
          by: stage === 'In Progress' || stage === 'Completed' ? 'tech' : 'csr',
          run: (ctx) =>
            itemized && stage === 'Invoiced'
              ? seedInvoice(deps, job.id, ctx)
              : itemized && stage === 'Paid'
                ? seedPayment(deps, job.id, 1, i, ctx)
                : changeJobStage(deps, { instanceId, jobId: job.id }, stage, ctx),
        });
      });
      // Some invoiced jobs have a deposit on them.
      if (itemized && finalStage === 'Invoiced' && i % 2 === 0) {
        timeline.push({ at: minutes(last, 120), by: 'csr', run: (ctx) => seedPayment(deps, job.id, 0.5, i, ctx) });
      }
      if (finalStage === 'Canceled') {
        timeline.push({
          at: after(last, pastSlot(Math.max(1, createdDaysAgo - 3), i + 2)),
          by: 'csr',
          run: (ctx) => cancelJob(deps, { instanceId, jobId: job.id }, ctx),
        });
      }
    }

    // Service requests in every state over the last weeks: open (from the counter and the public
    // page), converted to a job, archived. A request from a known customer becomes that customer's
    // job; a new person's becomes a new customer once (no second record of the same person).
    const NEW_FIRST = ['Robin', 'Sky', 'Harper', 'Emery', 'Rowan', 'Sage', 'Reese', 'Kai'];
    for (let i = 0; i < requestCount; i++) {
      const known = i % 2 === 0 && customers.length > 0 ? customers[(i * 5) % customers.length]! : null;
      const name = known?.name ?? `${pick(NEW_FIRST, i)} ${pick(LAST, i + 3)}`;
      const vehicle = known?.vehicle ?? pick(VEHICLES, i + 2);
      const serviceType = pick(SERVICE_TYPES, i);
      const submittedDaysAgo = 1 + ((i * 3) % 20);
      const submitted = after(known?.at ?? null, pastSlot(submittedDaysAgo, i + 4));
      const wanted = isoDateInShop(new Date(Date.now() + (1 + (i % 10)) * 86_400_000));
      const source = i % 3 === 1 ? 'public' : 'staff';
      const request = { id: '' };
      timeline.push({
        at: submitted,
        by: 'csr',
        run: async (ctx) => {
          const fields = serviceRequestInput.parse({
            customerName: name,
            contactEmail: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
            vehicleType: vehicle,
            serviceType,
            scheduledDate: wanted,
            additionalNotes: pick(NOTES, i + 1),
          });
          request.id = (await submitServiceRequest(deps, fields, source, ctx)).id;
        },
      });
      const state = i % 4;
      const decided = after(submitted, pastSlot(Math.max(1, submittedDaysAgo - 1), i + 5));
      if (state === 2) {
        timeline.push({
          at: decided,
          by: 'csr',
          run: (ctx) =>
            convertServiceRequest(
              deps,
              request.id,
              jobChangesInput.parse({
                name,
                phone: known?.phone ?? `555${String(3_000_000 + i).slice(-7)}`,
                customerId: known?.id,
                vehicleId: known?.vehicleId || undefined,
                part: serviceType,
                makeModel: vehicle,
                stage: 'Scheduled',
                appointment: workingSlot(1 + (i % 10), i + 3, timeZone).toISOString(),
                duration: 60,
                csr: 'Chris CSR',
                tech: 'Terry Tech',
              }),
              ctx,
              timeZone,
            ),
        });
      } else if (state === 3) {
        timeline.push({ at: decided, by: 'csr', run: (ctx) => archiveServiceRequest(deps, request.id, ctx) });
      }
    }

    // Oldest first (a stable sort keeps a record's own steps in the order they were listed).
    timeline.sort((a, b) => a.at.getTime() - b.at.getTime());
    const progress = createProgress('history', 'changes');
    let done = 0;
    for (const action of timeline) {
      await action.run(ctxAt(action.at, action.by));
      progress(++done, timeline.length);
    }
    await settle(deps, null);

    // The events were recorded now; the shop's history says when each happened. Like an import,
    // the store keeps those times, and the read models are built again from them.
    const moved = await storage.knex.raw(
      `UPDATE events SET recorded_at = (metadata->>'occurredAt')::timestamptz
        WHERE metadata->>'instanceId' = ? AND recorded_at >= ? AND (metadata->>'occurredAt')::timestamptz < ?`,
      [instanceId, seedStarted, seedStarted],
    );
    const rebuilding = createProgress('read models', 'events');
    const report = await rebuildReadModels({
      store: storage.store,
      knex: storage.knex,
      projections,
      onProgress: ({ replayed, total }) => rebuilding(replayed, total),
    });
    rebuilding(report.eventsReplayed, report.eventsReplayed);
    console.log(
      `\nSeeded "${subdomain}" into ${describeDatabase(config)}: ${timeline.length} changes over ${HISTORY_DAYS} working days (${moved.rowCount} events dated).`,
    );
    console.log(`Sign in at /crm/${subdomain} as admin, csr or tech (PIN 1234). The shop's time zone is ${timeZone}.`);
  }
} finally {
  await projector.stop();
  await watcher.stop();
  await storage.close();
}

/** The id of a user of the instance by username (the first admin, made with the instance). */
async function userIdOf(instanceId: string, username: string): Promise<string> {
  await settle(deps, null);
  for (let attempt = 0; attempt < 100; attempt++) {
    const row = (await storage.knex.withSchema('rm').from('users').where({ instance_id: instanceId, username }).first('id')) as
      { id: string } | undefined;
    if (row) return row.id;
    await sleep(100);
  }
  throw new Error(`the seed's ${username} did not show up in the read model`);
}

/** YYYY-MM-DD of an instant in the shop's zone. */
function isoDateInShop(date: Date): string {
  const shifted = new Date(date.getTime() + zoneOffset(date.getTime(), timeZone));
  return shifted.toISOString().slice(0, 10);
}
