import { setTimeout as sleep } from 'node:timers/promises';
import { isValidTimeZone, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { createProgress, startCli } from './cli.ts';
import { describeDatabase } from './infra/database.ts';
import { rebuildWithProgress } from './rebuild-progress.ts';
import { settle } from './deps.ts';
import { createUser, recordFirstAdmin } from './identity/index.ts';
import { subdomainStream, recordInstance, updateInstance } from './platform/index.ts';
import { openCommandTool } from './workers.ts';
import { systemContext, type InstanceContext } from './shared/commands.ts';
import { reservationHolder } from './shared/reservations.ts';
import { pastSlot } from './seed-clock.ts';
import { planJobs } from './seed-jobs.ts';
import { seedShopSettings } from './seed-repair-orders.ts';
import { planServiceRequests } from './seed-requests.ts';
import { planCustomers, type SeedAction, type SeedActor, type SeedPlan } from './seed-timeline.ts';

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

/** A size from the environment: a whole number, or the start stops naming the variable. */
function seedSize(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) {
    console.error(`${name} must be a whole number (0 or more), not "${raw}"`);
    process.exit(2);
  }
  return Number(raw);
}

const customerCount = seedSize('SEED_CUSTOMERS', 200);
const jobCount = seedSize('SEED_JOBS', 300);
// About one request for every dozen jobs (25 with the default sizes).
const requestCount = seedSize('SEED_REQUESTS', Math.round(jobCount / 12));
/** How far back the shop's history goes (working days). */
const HISTORY_DAYS = seedSize('SEED_HISTORY_DAYS', 90);
const timeZone = process.env.SEED_TIME_ZONE ?? 'America/Chicago';
if (subdomain === RESERVED_INSTANCE_SUBDOMAIN || !/^[a-z0-9]+$/.test(subdomain)) {
  console.error('SEED_SUBDOMAIN must be lower-case letters and digits, and not the reserved instance');
  process.exit(2);
}
if (!isValidTimeZone(timeZone)) {
  console.error('SEED_TIME_ZONE must be an IANA time zone such as America/Chicago');
  process.exit(2);
}

const { storage, deps, close } = await openCommandTool(config, logger);

try {
  if (await reservationHolder(deps.store, subdomainStream(subdomain))) {
    console.error(`An instance with subdomain "${subdomain}" exists already; set SEED_SUBDOMAIN to seed another one.`);
    process.exitCode = 1;
  } else {
    const seedStarted = new Date();
    const opened = pastSlot(HISTORY_DAYS + 5, 0, timeZone);
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
    const plan: SeedPlan = { deps, instanceId, timeZone, historyDays: HISTORY_DAYS, timeline };
    const customers = planCustomers(plan, customerCount);
    planJobs(plan, customers, jobCount);
    planServiceRequests(plan, customers, requestCount);

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
    await rebuildWithProgress('read models', { store: storage.store, knex: storage.knex });
    console.log(
      `\nSeeded "${subdomain}" into ${describeDatabase(config)}: ${timeline.length} changes over ${HISTORY_DAYS} working days (${moved.rowCount} events dated).`,
    );
    console.log(`Sign in at /crm/${subdomain} as admin, csr or tech (PIN 1234). The shop's time zone is ${timeZone}.`);
  }
} finally {
  await close();
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
