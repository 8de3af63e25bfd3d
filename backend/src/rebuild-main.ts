import { projections } from '@crm/projections/readmodels/index';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { startCli } from './cli.ts';
import { openStorage } from './runtime.ts';

/** `npm run projections:rebuild`: replay every event into fresh tables, compare, swap. */
const { config, logger } = startCli();
const storage = await openStorage(config, logger);
const started = Date.now();
let lastDrawn = 0;
const draw = ({ replayed, total }: { replayed: number; total: number | null }, final = false) => {
  const now = Date.now();
  if (!final && now - lastDrawn < 100) return;
  lastDrawn = now;
  const width = 30;
  const share = total ? Math.min(1, replayed / total) : 0;
  const bar = total ? `[${'#'.repeat(Math.round(share * width)).padEnd(width, '.')}] ${Math.round(share * 100)}% ` : '';
  const line = `Rebuilding read models ${bar}${replayed}${total ? `/${total}` : ''} events`;
  if (process.stderr.isTTY) process.stderr.write(`\r${line}`);
  else process.stderr.write(`${line}\n`);
};
try {
  draw({ replayed: 0, total: null }, true);
  const report = await rebuildReadModels({ store: storage.store, knex: storage.knex, projections, onProgress: draw });
  draw({ replayed: report.eventsReplayed, total: report.eventsReplayed }, true);
  if (process.stderr.isTTY) process.stderr.write('\n');
  console.log(`Replayed ${report.eventsReplayed} events in ${((Date.now() - started) / 1000).toFixed(1)} s and swapped the new tables in.`);
  for (const table of report.tables) {
    console.log(
      `  ${table.identical ? 'identical' : 'DIFFERENT'}  ${table.table}  (live ${table.liveRows} rows, rebuilt ${table.rebuiltRows} rows)`,
    );
  }
  console.log(
    report.identical
      ? 'Result: the rebuilt tables are identical to the tables they replaced.'
      : 'Result: the rebuilt tables differ from the ones they replaced (shown above); the rebuilt ones, from the events, are now live.',
  );
  process.exitCode = report.identical ? 0 : 1;
} finally {
  await storage.close();
}
