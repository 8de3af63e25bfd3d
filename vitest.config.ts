import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'frontend/src') } },
  test: {
    // CRM_TEST_CANARY=1 runs only CI's deliberately failing test, =unhandled only its passing test
    // beside which an error goes unhandled (see .ci/run).
    include: process.env.CRM_TEST_CANARY
      ? [process.env.CRM_TEST_CANARY === 'unhandled' ? '.ci/canary-unhandled.test.ts' : '.ci/canary.test.ts']
      : ['{backend,projections,frontend}/test/**/*.test.{ts,tsx}'],
    // The crash and outage tests (kill -9, PostgreSQL stopped) run in `npm run test:reliability`.
    exclude: [...configDefaults.exclude, '**/*.chaos.test.ts'],
    globalSetup: ['projections/src/testing/global-setup.ts'],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    testTimeout: 60_000,
    // Browser steps wait on PIN hashing and projections; a busy machine needs more than 1 s.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    // Browser tests start servers and Chromium; two cores are all we have.
    maxWorkers: 2,
  },
});
