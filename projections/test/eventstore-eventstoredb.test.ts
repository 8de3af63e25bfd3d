import { describe, test } from 'vitest';
import { createEventStoreDbEventStore } from '../src/eventstore/eventstoredb.ts';
import { eventStoreContract } from './eventstore-contract.ts';

const url = process.env.EVENTSTORE_URL;

// Start one with `docker compose -f infra/docker-compose.yml up -d` (see infra/README.md).
describe.skipIf(!url)('eventstoredb', () => {
  eventStoreContract('eventstoredb', async () => {
    const store = createEventStoreDbEventStore(url ?? '');
    return { store, cleanup: () => store.close() };
  });
});

if (!url) {
  // Registered as skipped (and logged) so every run reports why the suite did not run.
  console.info('EventStoreDB contract skipped: EVENTSTORE_URL is not set');
  test.skip('EventStoreDB contract skipped: EVENTSTORE_URL is not set (e.g. esdb://localhost:2113?tls=false)', () => {});
}
