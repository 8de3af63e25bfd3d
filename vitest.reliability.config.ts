import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/**
 * `npm run test:reliability`: the crash and outage tests (backend/test/reliability/*.chaos.test.ts).
 * They start the built server and projector as child processes, kill them with SIGKILL and
 * stop PostgreSQL, so they run one file at a time, after `npm run build`. Everything else
 * (global setup, reporters, aliases) is the main config's.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['backend/test/reliability/**/*.chaos.test.ts'],
    exclude: [...configDefaults.exclude],
    maxWorkers: 1,
    testTimeout: 400_000,
  },
});
