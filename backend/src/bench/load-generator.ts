import http from 'node:http';
import autocannon from 'autocannon';
import type { LoadReply, LoadRequest, LoadResult, LoadSpec } from './load-types.ts';

/**
 * The benchmark's load generator: a child process of `npm run bench` that runs autocannon
 * against a server in yet another process, so generating the load never shares an event
 * loop with serving it. It takes one LoadSpec at a time over IPC and answers with the
 * figures; it exits when the parent disconnects.
 */

const PARTS = ['Brake pads', 'Alternator', 'Timing belt', 'Water pump', 'Starter motor', 'Radiator'];

function requestFor(spec: LoadSpec, n: number): autocannon.Request {
  const target = spec.targets[n % spec.targets.length]!;
  const round = Math.floor(n / spec.targets.length);
  const id = target.ids?.length ? target.ids[round % target.ids.length]! : undefined;
  const headers: Record<string, string> = {};
  if (target.cookie) headers.cookie = target.cookie;
  switch (spec.kind) {
    case 'get':
      return { method: 'GET', path: target.path, headers };
    case 'create-job':
      return {
        method: 'POST',
        path: target.path,
        headers: { ...headers, 'content-type': 'application/json', 'x-crm-request': '1' },
        body: JSON.stringify({
          name: `Bench Walk-in ${n}`,
          phone: '5550100200',
          part: PARTS[n % PARTS.length],
          makeModel: '2018 Toyota Camry',
          quote: String(100 + (n % 900)),
          ...(id ? { customerId: id } : {}),
        }),
      };
    case 'update-job':
      return {
        method: 'PUT',
        path: `${target.path}/${id}`,
        headers: { ...headers, 'content-type': 'application/json', 'x-crm-request': '1' },
        // A new note every time: a save that changes nothing records nothing.
        body: JSON.stringify({ notes: `Bench note ${n} ${Date.now()}` }),
      };
  }
}

async function run(spec: LoadSpec): Promise<LoadResult> {
  if (spec.overallRate) return await runPaced(spec, spec.overallRate);
  let n = 0;
  const statuses: Record<string, number> = {};
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    duration: spec.duration,
    ...(spec.overallRate ? { overallRate: spec.overallRate } : {}),
    timeout: 30,
    requests: [
      {
        setupRequest: (request) => ({ ...request, ...requestFor(spec, n++) }),
        onResponse: (status) => {
          if (status < 200 || status >= 300) statuses[status] = (statuses[status] ?? 0) + 1;
        },
      },
    ],
  });
  const ok = result['2xx'];
  return {
    rps: ok / result.duration,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    statuses,
    latency: {
      mean: result.latency.mean,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    durationS: result.duration,
  };
}

/**
 * Requests at evenly spaced times, one every 1/rate s, over at most `connections` kept-alive
 * connections (a request waits for a free one when all are busy). autocannon's rate is per
 * connection and per second: each connection sends its share back to back at the start of
 * every second, a burst of the whole second's requests, not a steady rate. Latency counts
 * from the time a request was due, so a server that falls behind shows it (no coordinated
 * omission); `ok` counts the 2xx answers received within the duration, so the rate achieved
 * is what the server kept up with.
 */
async function runPaced(spec: LoadSpec, rate: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + spec.duration * 1000;
  const pending: Array<Promise<void>> = [];
  const send = (n: number, due: number) =>
    new Promise<void>((resolve) => {
      const request = requestFor(spec, n);
      const url = new URL(request.path!, spec.url);
      const req = http.request(url, { method: request.method, headers: request.headers, agent, timeout: 30_000 }, (res) => {
        res.resume();
        res.on('end', () => {
          const at = performance.now();
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            latencies.push(at - due);
            if (at <= end) ok++;
          } else {
            non2xx++;
            statuses[status] = (statuses[status] ?? 0) + 1;
          }
          resolve();
        });
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', () => {
        errors++;
        resolve();
      });
      if (request.body) req.end(request.body as string);
      else req.end();
    });
  for (let n = 0; ; n++) {
    const due = start + (n * 1000) / rate;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(n, due));
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)]! : 0);
  return {
    rps: ok / spec.duration,
    ok,
    non2xx,
    errors,
    statuses,
    latency: {
      mean: latencies.length ? latencies.reduce((a, b) => a + b, 0) / latencies.length : 0,
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: latencies[latencies.length - 1] ?? 0,
    },
    durationS: spec.duration,
  };
}

process.on('message', (message: LoadRequest) => {
  run(message.spec).then(
    (result) => process.send!({ id: message.id, result } satisfies LoadReply),
    (error: unknown) =>
      process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies LoadReply),
  );
});
process.on('disconnect', () => process.exit(0));
