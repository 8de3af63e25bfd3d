/**
 * Sizes and durations of `npm run bench` (full) and `npm run bench -- --quick` (small: it
 * runs in CI to show the benchmark works, and its figures mean little). Environment
 * variables override single values; `--skip=append,reads,commands,lag,rebuild,frontend`
 * leaves phases out while working on one.
 */
export interface BenchOptions {
  quick: boolean;
  /** Customers and jobs of the one large instance. */
  customers: number;
  jobs: number;
  /** The other instances, each with this many customers and as many jobs. */
  otherInstances: number;
  otherRows: number;
  /** Seconds per autocannon run. */
  duration: number;
  /** Milliseconds per append scenario and contestant, over all its rounds. */
  appendMs: number;
  appenders: number[];
  commandConnections: number[];
  readConnections: number;
  /** The lag target's rate of commands (job updates) per second. */
  lagRate: number;
  /** A rate this machine sustains, measured besides the target's (0: not measured). */
  lagSustainedRate: number;
  lagSeconds: number;
  /** Rows on the pipeline and customers screens for the Chromium comparison. */
  screenRows: number;
  skip: Set<string>;
}

export const PHASES = ['append', 'reads', 'commands', 'lag', 'rebuild', 'frontend', 'screens'] as const;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`${name} must be a non-negative number`);
    process.exit(2);
  }
  return value;
}

export function parseOptions(argv: string[]): BenchOptions {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(
      [
        'Usage: npm run bench [-- --quick] [-- --skip=<phase,...>]',
        '  --quick         small sizes and 2-second runs (a few minutes)',
        `  --skip=<list>   leave phases out; phases: ${PHASES.join(', ')}`,
        'Sizes, durations and traces come from BENCH_* environment variables (README, "Performance").',
      ].join('\n'),
    );
    process.exit(0);
  }
  const unknown = argv.filter((arg) => arg !== '--quick' && !arg.startsWith('--skip='));
  if (unknown.length > 0) {
    console.error(`Unknown argument ${unknown.join(' ')}; use --quick and --skip=${PHASES.join(',')}`);
    process.exit(2);
  }
  const quick = argv.includes('--quick');
  const skip = new Set(
    argv
      .filter((arg) => arg.startsWith('--skip='))
      .flatMap((arg) => arg.slice('--skip='.length).split(','))
      .filter(Boolean),
  );
  for (const phase of skip) {
    if (!(PHASES as readonly string[]).includes(phase)) {
      console.error(`--skip: unknown phase "${phase}"; phases: ${PHASES.join(', ')}`);
      process.exit(2);
    }
  }
  return {
    quick,
    customers: envNumber('BENCH_CUSTOMERS', quick ? 2000 : 100_000),
    jobs: envNumber('BENCH_JOBS', quick ? 2000 : 100_000),
    otherInstances: envNumber('BENCH_OTHER_INSTANCES', 10),
    otherRows: envNumber('BENCH_OTHER_ROWS', quick ? 100 : 1000),
    // Two seconds, not one, in quick runs: a p99 over one second's answers swung with a single
    // slow moment of the shared machine.
    duration: envNumber('BENCH_DURATION', quick ? 2 : 10),
    appendMs: envNumber('BENCH_APPEND_MS', quick ? 3000 : 6000),
    appenders: [1, 8, 32],
    commandConnections: [1, 8, 32],
    readConnections: envNumber('BENCH_READ_CONNECTIONS', 8),
    lagRate: envNumber('BENCH_LAG_RATE', 300),
    lagSustainedRate: envNumber('BENCH_LAG_SUSTAINED_RATE', 100),
    lagSeconds: envNumber('BENCH_LAG_SECONDS', quick ? 3 : 30),
    screenRows: envNumber('BENCH_SCREEN_ROWS', quick ? 50 : 200),
    skip,
  };
}
