import { describe, expect, test } from 'vitest';
import type { LoadResult } from '../../src/bench/load-types.ts';
import { evaluate, latencyNote, p99Figure } from '../../src/bench/report.ts';

const run = (ok: number, p99: number): LoadResult => ({
  rps: ok,
  ok,
  non2xx: ok === 0 ? 4 : 0,
  errors: 0,
  statuses: ok === 0 ? { 503: 4 } : {},
  latency: { mean: p99 / 2, p50: p99 / 2, p90: p99, p99, max: p99 },
  durationS: 1,
});

describe('the bench report judges a figure by what was measured', () => {
  test('a p99 within its target is met, above it missed', () => {
    expect(evaluate({ section: 'reads', name: 'p99', value: p99Figure(run(100, 20)), unit: 'ms', target: { atMost: 30 } }).met).toBe(true);
    expect(evaluate({ section: 'reads', name: 'p99', value: p99Figure(run(100, 31)), unit: 'ms', target: { atMost: 30 } }).met).toBe(false);
  });

  test('a run in which no request completed misses its latency target (autocannon says 0 ms then) and says why', () => {
    const none = run(0, 0);
    const figure = evaluate({ section: 'commands', name: 'p99', value: p99Figure(none), unit: 'ms', target: { atMost: 50 } });
    expect(figure.met).toBe(false);
    expect(latencyNote(none)).toMatch(/^no request completed, /);
    // Its throughput is 0 req/s, which misses a ratio target too.
    expect(
      evaluate({ section: 'commands', name: 'rps', value: none.rps, unit: 'req/s', baseline: 100, target: { ratioAtLeast: 0.5 } }).met,
    ).toBe(false);
  });

  test('a figure not measured is not judged', () => {
    expect(evaluate({ section: 'reads', name: 'p99', value: null, unit: 'ms', target: { atMost: 30 } }).met).toBeNull();
    expect(evaluate({ section: 'reads', name: 'p99', value: Number.NaN, unit: 'ms', target: { atMost: 30 } }).met).toBeNull();
  });
});
