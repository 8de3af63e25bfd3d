import { CheckpointWatcher } from '@crm/projections/runtime/checkpoints';
import { startCli } from './cli.ts';
import type { AppDeps } from './deps.ts';
import { describeDatabase } from './infra/database.ts';
import { createProjector, openStorage } from './runtime.ts';
import { systemContext } from './shared/commands.ts';
import { migrateVehicleLabels } from './vehicle-migration/index.ts';

/**
 * `npm run vehicles:migrate`: the one-time migration of free-text vehicles into vehicle
 * records, for every instance not migrated yet (each instance's run is one append with its
 * marker, so running it again, or beside a server, changes nothing twice).
 */
const { config, logger } = startCli();
const storage = await openStorage(config, logger);
const watcher = new CheckpointWatcher(storage.knex, storage.databaseUrl);
await watcher.start();
// Projects what we write; on standby (and harmless) when a running server already projects.
const projector = createProjector(storage, logger);
projector.start();
const deps: AppDeps = { config, logger, knex: storage.knex, store: storage.store, watcher, now: () => new Date() };
try {
  const instances = (await storage.knex.withSchema('rm').from('crm_instances').select('id', 'subdomain').orderBy('created_at')) as Array<{
    id: string;
    subdomain: string;
  }>;
  for (const instance of instances) {
    const ctx = { ...systemContext(deps.now(), 'vehicle-label-migration', 'Vehicle migration'), instanceId: instance.id };
    const report = await migrateVehicleLabels(deps, ctx);
    console.log(
      report.migrated
        ? `${instance.subdomain}: ${report.vehicles} vehicle record(s) made, ${report.jobsLinked} job(s) put on their vehicle`
        : `${instance.subdomain}: migrated before, nothing to do`,
    );
  }
  console.log(`Vehicle labels of ${describeDatabase(config)} migrated.`);
} finally {
  await projector.stop();
  await watcher.stop();
  await storage.close();
}
