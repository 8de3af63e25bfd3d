import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, test } from 'vitest';

/**
 * The boundaries hold only while lint reports a breach. Each probe is a file, written for the
 * test where such code would live, that imports what it must not; ESLint, run with the
 * repository's own configuration, has to name the rule and the import.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const written: string[] = [];

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

interface Probe {
  /** Where the file is written, relative to the repository. */
  at: string;
  source: string;
  /** The rule and a piece of the forbidden module's name, for each import that must be reported. */
  reported: Array<{ rule: string; module: string }>;
}

const probe = (dir: string, extension = 'ts') => `${dir}/zz-lint-probe-${process.pid}.${extension}`;

const probes: Record<string, Probe> = {
  'frontend → a Node-only module of the core package, and Node itself': {
    at: probe('frontend/src/features/customers'),
    source: [
      "import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';",
      "import { projections } from '@crm/projections/read-models';",
      "import { readFileSync } from 'node:fs';",
      'export const used = [createPostgresEventStore, projections, readFileSync];',
    ].join('\n'),
    reported: [
      { rule: 'no-restricted-imports', module: 'eventstore/postgres' },
      { rule: 'no-restricted-imports', module: 'read-models' },
      { rule: 'no-restricted-imports', module: 'node:fs' },
    ],
  },
  'frontend: one feature → another feature': {
    at: probe('frontend/src/features/customers'),
    source: ["import * as pipeline from '../pipeline/api/cancel-job.ts';", 'export const used = pipeline;'].join('\n'),
    reported: [{ rule: 'import-x/no-restricted-paths', module: 'cancel-job' }],
  },
  "backend: one slice → another slice's internals, and a slice → the composition root": {
    at: probe('backend/src/pipeline'),
    source: [
      "import { createCustomer } from '../customers/customer-service.ts';",
      "import { routeModules } from '../routes.ts';",
      'export const used = [createCustomer, routeModules];',
    ].join('\n'),
    reported: [
      { rule: 'import-x/no-restricted-paths', module: 'customer-service' },
      { rule: 'import-x/no-restricted-paths', module: 'routes' },
    ],
  },
  "backend: the composition root → a slice's internals": {
    at: probe('backend/src'),
    source: ["import { createCustomer } from './customers/customer-service.ts';", 'export const used = createCustomer;'].join('\n'),
    reported: [{ rule: 'import-x/no-restricted-paths', module: 'customer-service' }],
  },
  'core package: a migration → runtime code': {
    at: probe('projections/src/db/migrations'),
    source: [
      "import { DEFAULT_DURATION_MINUTES } from '../../pipeline/stages.ts';",
      "import { maskPhone } from '../../shared/phone.ts';",
      'export const used = [DEFAULT_DURATION_MINUTES, maskPhone];',
    ].join('\n'),
    reported: [
      { rule: 'import-x/no-restricted-paths', module: 'stages' },
      { rule: 'import-x/no-restricted-paths', module: 'phone' },
    ],
  },
  "core package: one slice → another slice's internals": {
    at: probe('projections/src/insights'),
    source: ["import { STAGES } from '../pipeline/stages.ts';", 'export const used = STAGES;'].join('\n'),
    reported: [{ rule: 'import-x/no-restricted-paths', module: 'stages' }],
  },
};

describe('lint holds every boundary', () => {
  const eslint = new ESLint({ cwd: root, cache: false });

  for (const [name, { at, source, reported }] of Object.entries(probes)) {
    test(
      name,
      async () => {
        const file = path.join(root, at);
        written.push(file);
        writeFileSync(file, `${source}\n`);
        const [result] = await eslint.lintFiles([file]);
        rmSync(file, { force: true });
        const messages = (result?.messages ?? []).map((m) => ({ rule: m.ruleId, line: m.line, message: m.message }));
        for (const { rule, module } of reported) {
          const line = source.split('\n').findIndex((text) => text.includes(module)) + 1;
          expect(messages, `${rule} on line ${line} (${module})`).toContainEqual(expect.objectContaining({ rule, line }));
        }
      },
      240_000,
    );
  }

  test('the probes import nothing else forbidden: the reports above come from the imports named', async () => {
    // A file of allowed imports only, where the probes live, lints clean: the reports are the
    // rules' doing, not the file's place.
    const file = path.join(root, probe('backend/src/pipeline'));
    written.push(file);
    writeFileSync(file, "import { createCustomer } from '../customers/index.ts';\nexport const used = createCustomer;\n");
    const [result] = await eslint.lintFiles([file]);
    rmSync(file, { force: true });
    expect(result?.messages).toEqual([]);
  }, 240_000);
});
