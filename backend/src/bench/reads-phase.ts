import { createProgress } from '../cli.ts';
import type { BenchInstance } from './api-client.ts';
import type { LoadKind, LoadResult, LoadTarget } from './load-types.ts';
import type { PhaseContext } from './phase.ts';
import { processCpuMs } from './postgres-cpu.ts';
import type { LoadGenerator } from './processes.ts';
import { latencyNote, p99Figure } from './report.ts';
import type { SeededInstance } from './seed.ts';

/** Reads at scale: each list, search and week of the big instance against bare Koa running the same SQL. */

const SEARCH = 'garcia';
const AUTOCOMPLETE = 'rodrig';
/** Seconds each server serves every case's route before the first case is measured. */
const PROCESS_WARM_UP_S = 5;

/** One request first: a scenario whose route does not answer 2xx is reported, not timed. */
async function probe(url: string, target: LoadTarget): Promise<string | null> {
  const response = await fetch(url + target.path, { headers: target.cookie ? { cookie: target.cookie } : {} });
  const text = await response.text();
  return response.ok ? null : `${response.status} ${text.slice(0, 200)}`;
}

export async function readsPhase(
  ctx: PhaseContext,
  load: LoadGenerator,
  apiUrl: string,
  baselineUrl: string,
  big: BenchInstance & SeededInstance,
  pids: { api: number | undefined; baseline: number | undefined },
) {
  const { options } = ctx;
  const monday = new Date();
  monday.setUTCHours(0, 0, 0, 0);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  // The week before this one: appointments fall within two weeks after a job's creation.
  const from = new Date(monday.getTime() - 7 * 86_400_000).toISOString();
  const to = monday.toISOString();
  const inst = `instance=${big.id}`;
  const scenarios: Array<{ name: string; api: string; baseline: string }> = [
    { name: 'pipeline list, first page', api: `/api/${big.subdomain}/pipeline`, baseline: `/reads/jobs-list?${inst}` },
    {
      name: `pipeline search ?q=${SEARCH}`,
      api: `/api/${big.subdomain}/pipeline?q=${SEARCH}`,
      baseline: `/reads/jobs-list?${inst}&q=${SEARCH}`,
    },
    { name: 'customer list, first page', api: '/api/customers', baseline: `/reads/customers-list?${inst}` },
    { name: `customer search ?q=${SEARCH}`, api: `/api/customers?q=${SEARCH}`, baseline: `/reads/customers-list?${inst}&q=${SEARCH}` },
    {
      name: `autocomplete ?query=${AUTOCOMPLETE}`,
      api: `/api/customers/search?query=${AUTOCOMPLETE}`,
      baseline: `/reads/autocomplete?${inst}&query=${AUTOCOMPLETE}`,
    },
    { name: 'audit log, first page', api: '/api/admin/audit', baseline: `/reads/audit?${inst}` },
    {
      name: 'calendar week',
      api: `/api/calendar/appointments?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
      baseline: `/reads/calendar?${inst}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    },
  ];
  // BENCH_READS=audit (a part of the case's name) runs only the matching cases: to profile one read alone.
  const only = process.env.BENCH_READS?.trim().toLowerCase();
  if (only) scenarios.splice(0, scenarios.length, ...scenarios.filter((scenario) => scenario.name.toLowerCase().includes(only)));
  // Both processes serve every case's route together for a few seconds before the first case
  // is measured: otherwise that case measured the API's first seconds of serving (its code not
  // yet optimised, the heap the seeding left collected), whichever case it was. A second on
  // each case's own route follows below, as before.
  if (scenarios.length > 0) {
    const warmUp = { kind: 'get' as LoadKind, connections: options.readConnections, duration: PROCESS_WARM_UP_S };
    await load.run({ ...warmUp, url: apiUrl, targets: scenarios.map((scenario) => ({ path: scenario.api, cookie: big.cookie })) });
    await load.run({ ...warmUp, url: baselineUrl, targets: scenarios.map((scenario) => ({ path: scenario.baseline })) });
  }
  const progress = createProgress(`reads (${options.readConnections} connections, ${options.duration} s each)`, 'runs');
  const details: Record<string, unknown> = {};
  let done = 0;
  for (const scenario of scenarios) {
    const apiTarget: LoadTarget = { path: scenario.api, cookie: big.cookie };
    const baseTarget: LoadTarget = { path: scenario.baseline };
    const failed = (await probe(apiUrl, apiTarget)) ?? (await probe(baselineUrl, baseTarget));
    if (failed) {
      ctx.figures.push({ section: 'reads', name: scenario.name, value: null, unit: 'req/s', note: `not measured: ${failed}` });
      progress((done += 2), scenarios.length * 2);
      continue;
    }
    const spec = { kind: 'get' as LoadKind, connections: options.readConnections, duration: options.duration };
    // Both servers warmed up on the route first (a second each, not measured): the first
    // scenario otherwise measured the API's code being compiled (pipeline list: 27 ms of CPU a
    // request against 5 for the baseline in a 5-second run).
    const warmUp = { ...spec, duration: Math.min(1, options.duration) };
    await load.run({ ...warmUp, url: apiUrl, targets: [apiTarget] });
    await load.run({ ...warmUp, url: baselineUrl, targets: [baseTarget] });
    const ours = await cpuPerRequest(pids.api, () => load.run({ ...spec, url: apiUrl, targets: [apiTarget] }));
    progress(++done, scenarios.length * 2);
    const bare = await cpuPerRequest(pids.baseline, () => load.run({ ...spec, url: baselineUrl, targets: [baseTarget] }));
    progress(++done, scenarios.length * 2);
    details[scenario.name] = { api: ours, baseline: bare };
    ctx.figures.push({
      section: 'reads',
      name: `${scenario.name} (throughput)`,
      value: ours.rps,
      unit: 'req/s',
      baseline: bare.rps,
      baselineName: 'bare Koa + same SQL',
      target: { ratioAtLeast: 0.7 },
      note: `API ${latencyNote(ours)}${cpuNote(ours)}; baseline ${latencyNote(bare)}${cpuNote(bare)}`,
    });
    ctx.figures.push({
      section: 'reads',
      name: `${scenario.name} (p99)`,
      value: p99Figure(ours),
      unit: 'ms',
      baseline: p99Figure(bare),
      target: { atMost: 30 },
    });
  }
  ctx.details.reads = details;
}

/**
 * A load run with the CPU time its server process used per answered request: what a read
 * costs the process, which a busy machine does not inflate as it does wall time and req/s.
 */
async function cpuPerRequest(
  pid: number | undefined,
  run: () => Promise<LoadResult>,
): Promise<LoadResult & { cpuMsPerRequest: number | null }> {
  const before = pid === undefined ? null : processCpuMs(pid);
  const result = await run();
  const after = pid === undefined ? null : processCpuMs(pid);
  const answered = result.ok + result.non2xx;
  return { ...result, cpuMsPerRequest: before === null || after === null || answered === 0 ? null : (after - before) / answered };
}

function cpuNote(result: { cpuMsPerRequest: number | null }): string {
  return result.cpuMsPerRequest === null ? '' : `, CPU ${result.cpuMsPerRequest.toFixed(2)} ms/request`;
}
