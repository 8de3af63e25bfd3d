import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';

const root = import.meta.dirname;
const subfolders = (dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

// The workspaces' own TypeScript: type-aware rules and the import graph cover these.
const workspaceSources = ['{backend,projections,frontend}/{src,test}/**/*.{ts,tsx}'];

// Backend: every folder under backend/src is a slice, except the shared kernel that all
// slices build on. A slice reaches another one only through that slice's public module,
// backend/src/<slice>/index.ts. The top-level files (routes.ts, runtime.ts, seed-main.ts, …)
// are the composition root that wires the slices together, so they may import any of them.
const backendKernel = ['http', 'infra', 'shared'];
const backendSlices = subfolders('backend/src').filter((name) => !backendKernel.includes(name));
const backendSliceZones = backendSlices.map((slice) => ({
  target: `backend/src/!(${slice})/**/*`,
  from: `backend/src/${slice}`,
  except: ['./index.ts'],
  message: `Another slice reaches ${slice} only through its public module, backend/src/${slice}/index.ts.`,
}));

// The core package: its slices reach each other only through the other slice's public
// module (index.ts). Its kernel (db, eventstore, runtime, shared, testing) and top-level files
// (events.ts, read-models.ts, contract.ts) compose the slices and may import them.
const coreKernel = ['db', 'eventstore', 'runtime', 'shared', 'testing'];
const coreSlices = subfolders('projections/src').filter((name) => !coreKernel.includes(name));
const coreSliceZones = coreSlices.map((slice) => ({
  target: `projections/src/!(${[slice, ...coreKernel].join('|')})/**/*`,
  from: `projections/src/${slice}`,
  except: ['./index.ts'],
  message: `Another slice reaches ${slice} only through its public module, projections/src/${slice}/index.ts.`,
}));

// The composition root (runtime.ts, routes.ts, the *-main.ts entry points, the bench's
// wiring) wires the slices together; no slice imports it. config, deps and logger are the
// kernel every slice is handed.
const backendRootKernel = ['config.ts', 'deps.ts', 'logger.ts'];
const backendCompositionRoot = fs
  .readdirSync(path.join(root, 'backend/src'))
  .filter((name) => name.endsWith('.ts') && !backendRootKernel.includes(name))
  .map((name) => `backend/src/${name}`);
const backendRootZone = {
  target: 'backend/src/!(bench)/**/*',
  from: backendCompositionRoot,
  message: 'The composition root wires the slices together: no slice imports it (take what it hands in).',
};

// The composition root reaches each slice through its public module too: what it wires
// together is what the slice offers, not the slice's insides.
const backendRootSliceZones = backendSlices.map((slice) => ({
  target: 'backend/src/*.ts',
  from: `backend/src/${slice}`,
  except: ['./index.ts'],
  message: `The composition root reaches ${slice} only through its public module, backend/src/${slice}/index.ts.`,
}));

// A migration stands alone: it must do the same on every database whenever it runs, so it
// keeps its own copy of any value it needs instead of importing code that may change later.
// It may use only the migration helpers (shared/migrations.ts) and knex's types.
const coreMigrationZone = {
  target: ['projections/src/*/migrations.ts', 'projections/src/db/migrations/*.ts'],
  from: 'projections/src',
  except: ['./shared/migrations.ts'],
  message: 'A migration stands alone: copy the value it needs here instead of importing runtime code that may change later.',
};

// Frontend: app → features → components / lib / config, one way; features never import each other.
const frontendFeatures = subfolders('frontend/src/features');
const frontendZones = [
  {
    target: ['frontend/src/components', 'frontend/src/lib', 'frontend/src/config'],
    from: ['frontend/src/features', 'frontend/src/app'],
    message: 'components, lib and config are shared building blocks: they import neither features nor app.',
  },
  {
    target: 'frontend/src/features',
    from: 'frontend/src/app',
    message: 'Features do not import app: app composes the features.',
  },
  ...frontendFeatures.map((feature) => ({
    target: `frontend/src/features/!(${feature})/**/*`,
    from: `frontend/src/features/${feature}`,
    message: 'Features never import each other: move what both need to components or lib, or compose them in app.',
  })),
];

// The browser gets only the core package's browser-safe doors: each slice's public module
// (fields, contract, formatters, events), the contract and the shared helpers. Everything else
// there (event store adapters, projector, migrations, embedded PostgreSQL) is Node-only, and so
// are Node's own modules.
const browserSafeCore = ['contract', 'shared', ...coreSlices].map((entry) => `!@crm/projections/${entry}`);
const frontendNodeOnly = {
  patterns: [
    { group: ['node:*'], message: 'The frontend runs in the browser: Node modules are not there.' },
    {
      group: ['@crm/projections/*', ...browserSafeCore, '@crm/projections/*/**'],
      message: "The frontend imports the core package only through a slice's public module, the contract or shared.",
    },
  ],
  paths: ['fs', 'path', 'crypto', 'os', 'child_process', 'net', 'http', 'https', 'stream', 'url', 'util'].map((name) => ({
    name,
    message: 'The frontend runs in the browser: Node modules are not there.',
  })),
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.data/**', '.test-data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Type-aware rules for the workspaces' code (each workspace's tsconfig.json via the project service).
    files: workspaceSources,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: root } },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        // A `default` does not stand for the cases it hides: a new union member must be handled on purpose.
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The architecture: no import cycles, and the boundaries above.
    files: workspaceSources,
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['backend/tsconfig.json', 'projections/tsconfig.json', 'frontend/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: root,
          zones: [...backendSliceZones, backendRootZone, ...backendRootSliceZones, ...coreSliceZones, coreMigrationZone, ...frontendZones],
        },
      ],
    },
  },
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', frontendNodeOnly] },
  },
  {
    files: ['frontend/src/**/*.tsx'],
    ...jsxA11y.configs.recommended,
  },
  {
    // Tests read loosely typed JSON bodies.
    files: ['**/test/**/*.ts', '**/test/**/*.tsx'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
