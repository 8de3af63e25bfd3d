import { startCli } from './cli.ts';
import { describeDatabase } from './infra/database.ts';
import { rebuildWithProgress } from './rebuild-progress.ts';
import { openStorage } from './runtime.ts';

/** `npm run projections:rebuild`: replay every event into fresh tables, compare, swap. */
const { config, logger } = startCli();
const storage = await openStorage(config, logger);
const started = Date.now();
try {
  const report = await rebuildWithProgress('Rebuilding read models', { store: storage.store, knex: storage.knex });
  console.log(`Rebuilt the read models of ${describeDatabase(config)}.`);
  console.log(`Replayed ${report.eventsReplayed} events in ${((Date.now() - started) / 1000).toFixed(1)} s and swapped the new tables in.`);
  // Where the time went: each step, and each projection's busy time while replaying (they overlap).
  console.log(
    `  ${Object.entries(report.timings)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}`,
  );
  // CPU this process used per step: unlike the times above, it does not grow with the machine's load.
  console.log(
    `  this process's CPU: ${Object.entries(report.processCpu)
      .map(([step, ms]) => `${step} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}`,
  );
  for (const table of report.tables) {
    console.log(
      `  ${table.identical ? 'identical' : 'DIFFERENT'}  ${table.table}  (live ${table.liveRows} rows, rebuilt ${table.rebuiltRows} rows)`,
    );
  }
  // A parked event is a change the read models do not show (the live ones skipped it, so did
  // this rebuild): a difference to look at, never "identical".
  for (const event of report.parked) {
    console.log(`  DIFFERENT  parked event ${event.eventId} (${event.type}, stream ${event.streamId}) not shown: ${event.error}`);
  }
  console.log(
    report.identical
      ? 'Result: the rebuilt tables are identical to the tables they replaced.'
      : report.parked.length > 0 && report.tables.every((t) => t.identical)
        ? `Result: the tables are the same, but ${report.parked.length} parked event(s) are not shown in them (above; listed in the admin panel).`
        : 'Result: the rebuilt tables differ from the ones they replaced (shown above); the rebuilt ones, from the events, are now live.',
  );
  process.exitCode = report.identical ? 0 : 1;
} finally {
  await storage.close();
}
