import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';

/**
 * README's "Configuration" table is what an operator has: every setting the server reads
 * must be in it with the default the code uses, and nothing may be in it that the code does
 * not read. Environment variables the scripts read (seed, bench, tests) must be named
 * somewhere in README too, or nobody finds them.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');

/** The rows of README's configuration table: variable names (a cell may name several) and the default cell. */
function configurationTable(): Array<{ names: string[]; defaultCell: string }> {
  const start = readme.indexOf('\n## Configuration\n');
  expect(start, 'README has a "## Configuration" section').toBeGreaterThan(0);
  const section = readme.slice(start + 1, readme.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => /^\| `[A-Z]/.test(line))
    .map((line) => {
      const cells = line.split(' | ');
      return {
        names: [...cells[0]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!),
        defaultCell: cells[1]!.trim(),
      };
    });
}

/** The keys of the zod schema in backend/src/config.ts (the settings the server reads). */
function configKeys(): string[] {
  const source = readFileSync(path.join(REPO, 'backend', 'src', 'config.ts'), 'utf8');
  const schema = source.slice(
    source.indexOf('const configSchema = z.object({'),
    source.indexOf('\n});', source.indexOf('const configSchema')),
  );
  return [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mjs|js)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Variables the code reads that nobody sets by hand: set by vitest itself, by a parent
 * process for its child (the bench's screen phase, `npm run test:eventstore`), or Node's
 * and the C library's own.
 */
const SET_BY_THE_CODE = new Set([
  'VITEST',
  'NODE_OPTIONS',
  'MALLOC_ARENA_MAX',
  'BENCH_SCREENS_OUT',
  'BENCH_BASELINE_POOL',
  'TEST_EVENTSTORE_URL',
  'HOME',
  'PATH',
]);

describe("README's configuration", () => {
  const rows = configurationTable();
  const documented = rows.flatMap((row) => row.names);

  test('names every setting the server reads, and only those', () => {
    expect(documented.length).toBeGreaterThan(10);
    expect([...documented].sort()).toEqual([...configKeys()].sort());
  });

  test("gives each setting's default as the code has it", () => {
    const defaults = loadConfig({ SESSION_SECRET: 'x'.repeat(32) }) as unknown as Record<string, unknown>;
    for (const { names, defaultCell } of rows) {
      for (const name of names) {
        if (defaultCell === '—') {
          if (name !== 'SESSION_SECRET') expect(defaults[name], `${name} has no default`).toBeUndefined();
          continue;
        }
        const literal = /^`([^`{]*)`$/.exec(defaultCell)?.[1];
        // A default described in words or computed from another setting ("generated", "{PORT}").
        if (literal === undefined) continue;
        expect(String(defaults[name]), `${name}'s default`).toBe(literal);
      }
    }
  });

  test('names every environment variable the scripts and the tests read', () => {
    const read = new Set<string>();
    for (const dir of ['backend/src', 'backend/test', 'projections/src', 'projections/test', 'scripts', '.ci']) {
      for (const file of sourceFiles(dir)) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) read.add(m[1] ?? m[2]!);
        // The bench reads its sizes through a helper that takes the variable's name.
        for (const m of text.matchAll(/envNumber\('([A-Z][A-Z0-9_]*)'/g)) read.add(m[1]!);
      }
    }
    expect(read.size).toBeGreaterThan(20);
    const missing = [...read].filter((name) => !SET_BY_THE_CODE.has(name) && !new RegExp(`\\b${name}\\b`).test(readme));
    expect(missing, 'read by the code but named nowhere in README').toEqual([]);
  });
});
