import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KEEP_ALIVE_MS } from '../src/http/server-lifecycle.ts';
import { createTestInstance, signInUser, startTestServer, type ApiClient, type TestServer } from './support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.stop();
});

async function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** Sends one request on the socket and resolves with the status line of its answer. */
function ask(socket: Socket, url: string): Promise<string> {
  const { host } = new URL(url);
  return new Promise((resolve, reject) => {
    if (socket.readableEnded || socket.closed) {
      reject(new Error('the server closed the connection while it was idle'));
      return;
    }
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      if (head >= 0 && length && text.length >= head + 4 + Number(length[1])) {
        socket.off('data', onData);
        socket.off('end', onClose);
        socket.off('close', onClose);
        resolve(text.slice(0, text.indexOf('\r\n')));
      }
    };
    const onClose = () => reject(new Error(`the server closed the connection (read so far: ${JSON.stringify(text)})`));
    socket.on('data', onData);
    socket.once('end', onClose);
    socket.once('close', onClose);
    socket.write(`GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
  });
}

/** Resolves when the server ends the connection (its FIN or a reset). */
const closedByServer = (socket: Socket) =>
  new Promise<void>((resolve) => {
    if (socket.readableEnded || socket.closed) resolve();
    socket.once('end', resolve).once('close', () => resolve());
    socket.resume();
  });

// A server that closes an idle kept-alive connection before the client does races the
// client's next request on it (a connection reset for the client). Node closes after 5 s by
// default; clients such as Node's fetch keep a connection about 4 s, browsers and load
// balancers longer.
test('an idle kept-alive connection stays open well past 5 s for the next request', async () => {
  const socket = await openSocket(server.url);
  try {
    expect(await ask(socket, server.url)).toBe('HTTP/1.1 200 OK');
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(await ask(socket, server.url)).toBe('HTTP/1.1 200 OK');
  } finally {
    socket.destroy();
  }
}, 30_000);

// The long keep-alive must not hold a shutdown: a stop closes idle connections at once and
// ends live streams, instead of waiting out the 65 s keep-alive.
describe('a stop with an idle kept-alive connection and an open live stream', () => {
  let own: TestServer;
  let owner: ApiClient;

  beforeAll(async () => {
    own = await startTestServer();
    await createTestInstance(own, 'keepshop');
    owner = await signInUser(own, 'keepshop', 'owner', '1234');
  });

  afterAll(async () => {
    await own?.stop();
  });

  // The test's own time limit is half the keep-alive: a stop that waited for the idle
  // connection instead of closing it could not pass.
  test(
    'closes both and the server stops',
    async () => {
      const idle = await openSocket(own.url);
      expect(await ask(idle, own.url)).toBe('HTTP/1.1 200 OK');
      const idleClosed = closedByServer(idle);
      const live = await fetch(`${own.url}/api/keepshop/live`, { headers: { cookie: owner.cookieHeader() } });
      expect(live.status).toBe(200);
      const reader = live.body!.getReader();
      await reader.read();
      const streamEnded = (async () => {
        for (;;) {
          const { done } = await reader.read().catch(() => ({ done: true }));
          if (done) return;
        }
      })();

      await own.runtime.stop();
      await idleClosed;
      await streamEnded;
      expect(idle.readableEnded || idle.closed).toBe(true);
      expect(own.runtime.server.listening).toBe(false);
    },
    KEEP_ALIVE_MS / 2,
  );
});
