/** The benchmark: what its entry point (bench.ts) and seeding wiring use. */
export { runBench } from './run.ts';
export { parseOptions } from './options.ts';
export type { SeedDomain } from './seed.ts';
