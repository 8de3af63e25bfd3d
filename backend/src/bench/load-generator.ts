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

process.on('message', (message: LoadRequest) => {
  run(message.spec).then(
    (result) => process.send!({ id: message.id, result } satisfies LoadReply),
    (error: unknown) =>
      process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies LoadReply),
  );
});
process.on('disconnect', () => process.exit(0));
