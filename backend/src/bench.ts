import path from 'node:path';
import { runBench, parseOptions } from './bench/index.ts';
import { deciderSeedDomain } from './bench-seed-domain.ts';

/**
 * `npm run bench` (see bench/run.ts). This entry is the composition root: it hands the
 * benchmark's bulk seeding the real deciders and event factory, so seeded records are the
 * events the commands would record.
 */

const domain = deciderSeedDomain({ id: 'bench', displayName: 'Bench Seeder', correlationId: 'bench-seed' });

runBench(domain, parseOptions(process.argv.slice(2)), path.resolve(import.meta.dirname, '../..')).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('The benchmark failed:', error);
    process.exit(1);
  },
);
