import { createRequire } from 'node:module';
import type * as EsdbClient from '@eventstore/db-client';

/**
 * The EventStoreDB client package, loaded on first use: it brings gRPC and its protocol
 * definitions (about 12 MB of heap), which a process on the PostgreSQL store never needs.
 * A static import would load it in every process, since the server bundle hoists the
 * imports of every module it contains.
 */
let client: typeof EsdbClient | undefined;

export function esdb(): typeof EsdbClient {
  return (client ??= createRequire(import.meta.url)('@eventstore/db-client') as typeof EsdbClient);
}
