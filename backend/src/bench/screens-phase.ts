import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScreensReport } from '../bench-screens.ts';
import { log, type PhaseContext } from './phase.ts';

/**
 * The pipeline screen against the customers screen with the same rows, in Chromium
 * (bench-screens.ts, its own process and database on this server): time until the rows
 * show, and the longest main-thread task while loading them and while typing a search.
 */
export function screensPhase(ctx: PhaseContext, repoRoot: string): void {
  const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const rows = ctx.options.screenRows;
  const name = `pipeline screen, ${rows} rows`;
  if (!existsSync(chrome)) {
    ctx.figures.push({ section: 'screens', name, value: null, unit: 'ms', note: `not measured: no Chromium at ${chrome}` });
    return;
  }
  log(`Screens: the pipeline and customers screens with ${rows} rows each, in Chromium...`);
  const out = path.join(os.tmpdir(), `crm-bench-screens-${process.pid}.json`);
  const run = spawnSync(process.execPath, [path.join(repoRoot, 'backend/dist/bench-screens.js')], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: ctx.databaseUrl, BENCH_SCREEN_ROWS: String(rows), BENCH_SCREENS_OUT: out },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (run.status !== 0 || !existsSync(out)) {
    ctx.figures.push({ section: 'screens', name, value: null, unit: 'ms', note: `not measured: the screens run exited ${run.status}` });
    return;
  }
  const report = JSON.parse(readFileSync(out, 'utf8')) as ScreensReport;
  rmSync(out, { force: true });
  const baselineName = `customers screen, ${rows} rows`;
  const { pipeline, customers } = report;
  ctx.figures.push(
    {
      section: 'screens',
      name: `${name}: first page shown`,
      value: pipeline.firstRowsMs,
      unit: 'ms',
      baseline: customers.firstRowsMs,
      baselineName,
      target: { ratioAtMost: 1.5 },
    },
    {
      section: 'screens',
      name: `${name}: all rows shown`,
      value: pipeline.allRowsMs,
      unit: 'ms',
      baseline: customers.allRowsMs,
      baselineName,
      target: { ratioAtMost: 1.5 },
    },
    // A long task is one over 50 ms; under 200 ms a screen still feels immediate.
    {
      section: 'screens',
      name: `${name}: longest task while loading`,
      value: pipeline.longestTaskMs,
      unit: 'ms',
      baseline: customers.longestTaskMs,
      baselineName,
      target: { atMost: 200 },
    },
    {
      section: 'screens',
      name: `${name}: longest task while typing a search`,
      value: pipeline.typingLongestTaskMs,
      unit: 'ms',
      baseline: customers.typingLongestTaskMs,
      baselineName,
      target: { atMost: 200 },
    },
  );
  ctx.details.screens = report;
}
