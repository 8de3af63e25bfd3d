import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchOptions } from './options.ts';
import { evaluate, renderMarkdown, renderTable, type Figure } from './report.ts';

export interface BenchRun {
  options: BenchOptions;
  started: Date;
  finished: Date;
  /** PostgreSQL's server_version. */
  postgres: string | undefined;
  figures: Figure[];
  details: Record<string, unknown>;
}

/** The report: the table and notes on stdout, and everything in `latest.json` under resultsDir. */
export function reportResults(run: BenchRun, resultsDir: string): void {
  const { options, started, finished, postgres: version } = run;
  const evaluated = run.figures.map(evaluate);
  console.log(`\nnpm run bench${options.quick ? ' -- --quick' : ''}: ${Math.round((finished.getTime() - started.getTime()) / 1000)} s`);
  console.log(
    `  ${options.customers.toLocaleString('en-US')} customers and ${options.jobs.toLocaleString('en-US')} jobs in one instance, ` +
      `${options.otherInstances} other instances with ${options.otherRows} of each; ${os.cpus().length} CPUs, PostgreSQL ${version}\n`,
  );
  console.log(renderTable(evaluated));
  for (const figure of evaluated.filter((f) => f.note)) console.log(`  ${figure.section}: ${figure.name}: ${figure.note}`);
  const missed = evaluated.filter((f) => f.met === false).length;
  const met = evaluated.filter((f) => f.met === true).length;
  console.log(`\n${met} targets met, ${missed} missed (the benchmark reports; it does not fail on them).`);
  const file = path.join(resultsDir, 'latest.json');
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        startedAt: started.toISOString(),
        finishedAt: finished.toISOString(),
        mode: options.quick ? 'quick' : 'full',
        machine: { cpus: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 1024 ** 3), node: process.version, postgres: version },
        sizes: {
          customers: options.customers,
          jobs: options.jobs,
          otherInstances: options.otherInstances,
          otherRows: options.otherRows,
          autocannonSeconds: options.duration,
          readConnections: options.readConnections,
        },
        figures: evaluated,
        markdown: renderMarkdown(evaluated),
        details: run.details,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Written to ${path.relative(process.cwd(), file) || file}`);
}
