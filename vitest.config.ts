import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'frontend/src') } },
  test: {
    include: ['{backend,projections,frontend}/test/**/*.test.{ts,tsx}'],
    globalSetup: ['projections/src/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser tests start servers and Chromium; two cores are all we have.
    maxWorkers: 2,
  },
});
