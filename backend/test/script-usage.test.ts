import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect, test } from 'vitest';

/**
 * `npm run export` and `npm run import` called wrongly, as a newcomer might: each answers in
 * a line or two naming what is wrong, exits 2, and never prints a stack trace. None of these
 * reaches a database, so no database is given.
 */
const REPO = path.resolve(import.meta.dirname, '../..');

function run(entry: string, args: string[]) {
  const result = spawnSync(process.execPath, [path.join(REPO, 'backend/dist', entry), ...args], {
    cwd: REPO,
    env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.stderr, 'no stack trace').not.toMatch(/^\s+at /m);
  return result;
}

test.each([
  [['--bogus'], /Unknown option '--bogus'[\s\S]*Usage: npm run export/],
  [['--instance', 'demo', 'extra'], /'extra'[\s\S]*Usage: npm run export/],
  [[], /^Usage: npm run export/],
  [['--instance', 'demo', '--out', '/no-such-folder/demo.jsonl'], /Cannot write \/no-such-folder\/demo\.jsonl/],
])('export %j exits 2 with a message', (args, message) => {
  const result = run('export-main.js', args);
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
});

test.each([
  [[], /^Usage: npm run import/],
  [['/no-such-folder/demo.jsonl'], /Cannot read \/no-such-folder\/demo\.jsonl/],
  [[REPO], /Cannot read /],
])('import %j exits 2 with a message', (args, message) => {
  const result = run('import-main.js', args);
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
});

test.each([
  ['scripts/run-server-script.mjs', ['rebuild', '--dry-run'], /npm run projections:rebuild takes no arguments \(got --dry-run\)/],
  ['scripts/run-server-script.mjs', ['seed', 'demo'], /npm run seed takes no arguments/],
  ['scripts/run-server-script.mjs', ['projector', '--port', '3001'], /npm run projector takes no arguments/],
  ['scripts/start.mjs', ['--port', '3001'], /npm start takes no arguments[\s\S]*PORT=3001 npm start/],
])('%s %j refuses arguments it would ignore, before it builds or starts anything', (script, args, message) => {
  const result = spawnSync(process.execPath, [script, ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000 });
  expect(result.status, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
});

test('the bench says how it is called with --help, and refuses an unknown flag, before it starts anything', () => {
  const help = spawnSync(process.execPath, [path.join(REPO, 'backend/dist/bench.js'), '--help'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(help.status, help.stderr).toBe(0);
  expect(help.stdout).toMatch(/Usage: npm run bench[\s\S]*--skip=[\s\S]*append, reads/);
  const wrong = spawnSync(process.execPath, [path.join(REPO, 'backend/dist/bench.js'), '--quik'], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toContain('Unknown argument --quik');
});
