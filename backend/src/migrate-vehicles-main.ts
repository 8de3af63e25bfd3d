import { startCli } from './cli.ts';
import { describeDatabase } from './infra/database.ts';
import { openCommandTool } from './workers.ts';
import { systemContext } from './shared/commands.ts';
import { migrateVehicleLabels } from './vehicle-migration/index.ts';

/**
 * `npm run vehicles:migrate`: the one-time migration of free-text vehicles into vehicle
 * records, for every instance not migrated yet (each instance's run is one append with its
 * marker, so running it again, or beside a server, changes nothing twice).
 */
const { config, logger } = startCli();
const { storage, deps, close } = await openCommandTool(config, logger);
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
  await close();
}
