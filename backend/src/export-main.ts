import { accessSync, constants, createWriteStream } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createProgress, startCli } from './cli.ts';
import { createLogger } from './logger.ts';
import { countInstanceEvents, instanceEventLines, resolveInstance } from './platform/index.ts';
import { openStorage } from './runtime.ts';

/**
 * `npm run export -- --instance <subdomain or id> [--out file.jsonl]`: the shop's whole
 * history, its events as JSONL (one per line, in log order), to the file or stdout;
 * progress on stderr. `npm run import -- <file>` restores it into another store.
 */
const USAGE = 'Usage: npm run export -- --instance <subdomain or id> [--out file.jsonl]';
let values: { instance?: string; out?: string };
try {
  ({ values } = parseArgs({ options: { instance: { type: 'string' }, out: { type: 'string' } }, allowPositionals: false }));
} catch (error) {
  // An unknown flag or a stray word: say which, and how it is called, not a stack trace.
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (!values.instance) {
  console.error(USAGE);
  process.exit(2);
}
if (values.out) {
  // Checked before the export starts, so a mistyped folder does not end it half-way.
  const folder = path.dirname(path.resolve(values.out));
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    console.error(`Cannot write ${values.out}: ${folder} is not a folder this user may write to.`);
    process.exit(2);
  }
}
const cli = startCli();
const { config } = cli;
// Without --out the events go to stdout, so the log lines go to stderr: a file made with
// `npm run --silent export -- --instance x > x.jsonl` holds events only, and imports as it is
// (without --silent, npm itself writes its "> shop-crm@… export" lines to stdout first).
const logger = values.out ? cli.logger : createLogger(config.LOG_LEVEL, pino.destination(2));
const storage = await openStorage(config, logger);
try {
  const instance = await resolveInstance(storage.knex, values.instance).catch(() => {
    console.error(`No CRM instance "${values.instance}".`);
    process.exit(1);
  });
  const total = await countInstanceEvents(storage.knex, instance.id);
  const progress = createProgress(`Exporting ${instance.subdomain}`, 'events');
  let done = 0;
  progress(0, total);
  const out: Writable = values.out ? createWriteStream(values.out) : process.stdout;
  for await (const chunk of instanceEventLines(storage.knex, instance.id, () => progress(++done, Math.max(total, done)))) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  if (values.out) {
    out.end();
    await finished(out);
  }
  progress(done, done);
  console.error(`Exported ${done} events of ${instance.subdomain} (${instance.id})${values.out ? ` to ${values.out}` : ''}.`);
} finally {
  await storage.close();
}
