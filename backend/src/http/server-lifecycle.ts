import type { Server } from 'node:http';

/**
 * How long an idle kept-alive connection stays open. The client, not the server, should be
 * the one to close it: a server that closes first races the request the client may be
 * sending on it at that moment, which the client sees as a connection reset. Node closes
 * after 5 s by default; clients keep a connection about 4 s (Node's fetch) or longer
 * (browsers, load balancers: up to 60 s), so the server keeps it longer than all of them.
 */
export const KEEP_ALIVE_MS = 65_000;

/** How long a shutdown waits for answers still being written before it closes their connections. */
export const SHUTDOWN_GRACE_MS = 3_000;

/** How often a shutdown looks for connections whose answer has been written meanwhile. */
const IDLE_SWEEP_MS = 50;

/** Sets the server's keep-alive above what clients keep (the headers' timeout must exceed it). */
export function keepConnectionsAlive(server: Server): void {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
}

/**
 * Stops a server without waiting out its kept-alive connections: it takes no new
 * connections, closes the idle ones at once, ends the never-ending answers (`endStreams`:
 * the live event streams), closes each busy connection as soon as its answer is written,
 * and after `graceMs` closes whatever is left. A request arriving meanwhile on an open
 * connection is answered with `Connection: close`.
 */
export async function closeServer(server: Server, endStreams: () => void = () => undefined, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const lastAnswer = (_request: unknown, response: { headersSent: boolean; setHeader(name: string, value: string): unknown }) => {
    if (!response.headersSent) response.setHeader('Connection', 'close');
  };
  server.on('request', lastAnswer);
  endStreams();
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
    server.off('request', lastAnswer);
  }
}
