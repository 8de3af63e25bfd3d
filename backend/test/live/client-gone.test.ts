import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from '../support/server.ts';

/** A browser closing a tab ends its live stream mid-response: that is no server error in the log. */

let server: TestServer;
let owner: ApiClient;
const logLines: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'warn' }, { logDestination: { write: (line: string) => void logLines.push(line) } });
  await createTestInstance(server, 'goneshop');
  owner = await signInUser(server, 'goneshop', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

test('a live stream the client closes logs no error', async () => {
  for (let i = 0; i < 3; i++) {
    const abort = new AbortController();
    const response = await fetch(`${server.url}/api/goneshop/live`, { headers: { cookie: owner.cookieHeader() }, signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
  }
  // The server hears the sockets close; give it time to (not) log.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const errors = logLines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
  expect(errors).toEqual([]);
  // The server still answers.
  expect((await owner.get('/api/user/current')).status).toBe(200);
});
