// `npm run test:eventstore`: the event store contract suite and the API integration suite
// (backend/test) against a real EventStoreDB at EVENTSTORE_URL; read models, sessions and
// checkpoints stay in the tests' PostgreSQL. Each test server keeps to streams of its own
// (EVENTSTORE_STREAM_PREFIX), so one EventStoreDB serves the whole run and may hold other data.
// Left out: the scale-out tests (their processes use PostgreSQL's event store) and the
// reliability tests (they cut and inspect PostgreSQL's event tables).
// Without EVENTSTORE_URL it says how to start one and exits 0.
import { spawnSync } from 'node:child_process';

const url = process.env.EVENTSTORE_URL;
if (!url) {
  console.log(
    [
      'EVENTSTORE_URL is not set: the EventStoreDB suites are skipped.',
      'Start one and run them:',
      '  docker compose -f infra/docker-compose.yml up -d eventstore',
      "  EVENTSTORE_URL='esdb://localhost:2113?tls=false' npm run test:eventstore",
    ].join('\n'),
  );
  process.exit(0);
}

const args = [
  'vitest',
  'run',
  'projections/test/eventstore-eventstoredb.test.ts',
  'backend/test',
  '--exclude',
  'backend/test/scale/**',
  '--exclude',
  'backend/test/reliability/**',
  ...process.argv.slice(2),
];
const result = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TEST_EVENTSTORE_URL: url } });
process.exit(result.status ?? 1);
