import { accessSync, constants, createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createProgress, startCli } from './cli.ts';
import { describeDatabase } from './infra/database.ts';
import { catchUpImported, ImportError, importEvents } from './platform/index.ts';
import { createProjector, createReactors, openStorage } from './runtime.ts';

/**
 * `npm run import -- <file.jsonl>`: writes a shop's export (`npm run export`) into this
 * store, as recorded (ids, streams, revisions, times), then projects them (read models and
 * reactors up to the head of the log). The store must not have the shop's streams yet.
 */
const file = process.argv[2];
if (!file || process.argv.length > 3) {
  console.error('Usage: npm run import -- <export.jsonl>');
  process.exit(2);
}
try {
  accessSync(file, constants.R_OK);
  if (!statSync(file).isFile()) throw new Error('not a file');
} catch {
  console.error(`Cannot read ${file}: no such file, or not a file this user may read.`);
  process.exit(2);
}
const { config, logger } = startCli();
if (config.EVENTSTORE_URL) {
  console.error('Import writes into the PostgreSQL event store (it keeps recorded times); EVENTSTORE_URL is set.');
  process.exit(2);
}
const storage = await openStorage(config, logger);
try {
  const progress = createProgress('Importing', 'events');
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  const report = await importEvents(storage.knex, lines, (n) => progress(n, null));
  // The last count drawn is the whole (progress lines come in steps; the total is known only now).
  progress(report.events, report.events);
  console.error(`Imported ${report.events} events in ${report.streams} streams into ${describeDatabase(config)}.`);
  const projecting = createProgress('Projecting', 'events');
  const subscribers = [createProjector(storage, logger), ...createReactors(storage, logger)] as const;
  const ms = await catchUpImported(storage, subscribers, (n) => projecting(n, report.events));
  projecting(report.events, report.events);
  console.error(`Read models built in ${(ms / 1000).toFixed(1)} s. \`npm run projections:rebuild\` replays them again and compares.`);
} catch (error) {
  if (error instanceof ImportError) {
    console.error(`Import refused: ${error.message}. Nothing was written.`);
    process.exitCode = 1;
  } else throw error;
} finally {
  await storage.close();
}
