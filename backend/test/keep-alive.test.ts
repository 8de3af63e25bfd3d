import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from './support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.stop();
});

/** Sends one request on the socket and resolves with the status line of its answer. */
function ask(socket: Socket, host: string): Promise<string> {
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

// A server that closes an idle kept-alive connection before the client does races the
// client's next request on it (a connection reset for the client). Node closes after 5 s by
// default; clients such as Node's fetch keep a connection about 4 s, browsers and load
// balancers longer.
test('an idle kept-alive connection stays open well past 5 s for the next request', async () => {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  try {
    expect(await ask(socket, `${hostname}:${port}`)).toBe('HTTP/1.1 200 OK');
    await new Promise((resolve) => setTimeout(resolve, 6_500));
    expect(await ask(socket, `${hostname}:${port}`)).toBe('HTTP/1.1 200 OK');
  } finally {
    socket.destroy();
  }
}, 30_000);
