import type { LoadResult } from './load-types.ts';

/**
 * The benchmark's figures: each with its baseline (measured in the same run), the ratio,
 * the target and whether it was met. It reports; it never fails a run on a figure.
 */

export type Target =
  /** value / baseline at least this */
  | { ratioAtLeast: number }
  /** value / baseline at most this (times: lower is better) */
  | { ratioAtMost: number }
  /** value at most this */
  | { atMost: number }
  /** value at least this */
  | { atLeast: number };

export interface Figure {
  section: string;
  name: string;
  value: number | null;
  unit: string;
  baseline?: number | null;
  baselineName?: string;
  target?: Target;
  /** What else the reader should know (errors, achieved rate…). */
  note?: string;
  /** The machine's 1-minute load average when the figure was taken (set by the bench). */
  load?: number;
}

export interface EvaluatedFigure extends Figure {
  ratio: number | null;
  targetText: string | null;
  met: boolean | null;
}

function targetText(target: Target | undefined, unit: string): string | null {
  if (!target) return null;
  if ('ratioAtLeast' in target) return `≥ ${target.ratioAtLeast.toFixed(2)}×`;
  if ('ratioAtMost' in target) return `≤ ${target.ratioAtMost.toFixed(2)}×`;
  if ('atMost' in target) return `≤ ${format(target.atMost)} ${unit}`;
  return `≥ ${format(target.atLeast)} ${unit}`;
}

export function evaluate(figure: Figure): EvaluatedFigure {
  const { value, baseline, target } = figure;
  const ratio = value !== null && baseline ? value / baseline : null;
  let met: boolean | null = null;
  // Infinity counts (a latency of a run where no request completed misses its target); NaN does not.
  if (target && value !== null && !Number.isNaN(value)) {
    if ('ratioAtLeast' in target) met = ratio === null ? null : ratio >= target.ratioAtLeast;
    else if ('ratioAtMost' in target) met = ratio === null ? null : ratio <= target.ratioAtMost;
    else if ('atMost' in target) met = value <= target.atMost;
    else met = value >= target.atLeast;
  }
  return { ...figure, ratio, targetText: targetText(target, figure.unit), met };
}

export function format(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '–';
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : 2;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/**
 * A load run's p99 as a figure: a run in which no request completed has no latency to show,
 * and its target is missed (autocannon reports 0 ms then, which read as met).
 */
export const p99Figure = (r: LoadResult): number => (r.ok === 0 ? Infinity : r.latency.p99);

/** An HTTP load run's latencies, and its failures when there were any, for a figure's note. */
export const latencyNote = (r: LoadResult) =>
  (r.ok === 0 ? 'no request completed, ' : '') +
  `p50 ${format(r.latency.p50)} ms, p99 ${format(r.latency.p99)} ms${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx ${JSON.stringify(r.statuses)}, ${r.errors} errors` : ''}`;

const withUnit = (n: number | null | undefined, unit: string) => (n === null || n === undefined ? '–' : `${format(n)} ${unit}`);

/** A plain-text table, one section after another. */
export function renderTable(figures: EvaluatedFigure[]): string {
  const header = ['figure', 'value', 'baseline', 'ratio', 'target', 'result', 'load'];
  const rows = figures.map((f) => [
    `${f.section}: ${f.name}`,
    withUnit(f.value, f.unit),
    f.baseline === undefined ? '' : withUnit(f.baseline, f.unit),
    f.ratio === null ? '' : `${f.ratio.toFixed(2)}×`,
    f.targetText ?? '',
    f.met === null ? (f.targetText ? 'n/a' : '') : f.met ? 'met' : 'MISSED',
    f.load === undefined ? '' : f.load.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The same table in Markdown (for the README). */
export function renderMarkdown(figures: EvaluatedFigure[]): string {
  const lines = ['| figure | value | baseline | ratio | target | result | load |', '|---|---:|---:|---:|---:|---|---:|'];
  for (const f of figures) {
    lines.push(
      `| ${f.section}: ${f.name} | ${withUnit(f.value, f.unit)} | ${f.baseline === undefined ? '' : withUnit(f.baseline, f.unit)} | ${
        f.ratio === null ? '' : `${f.ratio.toFixed(2)}×`
      } | ${f.targetText ?? ''} | ${f.met === null ? (f.targetText ? 'n/a' : '') : f.met ? 'met' : '**missed**'} | ${f.load === undefined ? '' : f.load.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}
