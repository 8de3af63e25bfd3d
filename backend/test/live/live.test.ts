import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { READ_MODEL_SCHEMA } from '@crm/projections/db/migrate';
import { projections } from '@crm/projections/read-models';
import { Projector } from '@crm/projections/runtime/projector';
import { liveHubOf } from '../../src/live/index.ts';
import {
  ApiClient,
  createTestInstance,
  startSecondApiProcess,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type TestServer,
} from '../support/server.ts';

/**
 * The live-update stream (GET /api/{instance}/live): what one session's change tells the
 * instance's other open streams, what it never tells another instance's, resuming with
 * Last-Event-ID, and the per-session cap.
 */

let server: TestServer;
let owner: ApiClient;
let writer: ApiClient;
let otherOwner: ApiClient;
let superAdmin: ApiClient;

const LIVE = '/api/liveshop/live';

interface SseMessage {
  event: string;
  id: string | null;
  data: any;
}

/** A Server-Sent Events client over fetch: collects messages as they come; `next` waits for one that fits. */
class SseStream {
  readonly messages: SseMessage[] = [];
  /** The id of the last message or heartbeat (what a browser would send back as Last-Event-ID). */
  lastId: string | null = null;
  ended = false;
  private readonly abort = new AbortController();
  private waiters: Array<() => void> = [];
  private done: Promise<void> = Promise.resolve();

  static async open(client: ApiClient, path: string, headers: Record<string, string> = {}): Promise<SseStream> {
    const stream = new SseStream();
    const response = await fetch(client.baseUrl + path, {
      headers: { cookie: client.cookieHeader(), accept: 'text/event-stream', ...headers },
      signal: stream.abort.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-store');
    stream.done = stream.read(response.body!);
    await stream.next((m) => m.event === 'ready');
    return stream;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        text += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          this.take(text.slice(0, end));
          text = text.slice(end + 2);
        }
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    this.wake();
  }

  private take(block: string): void {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const at = line.indexOf(':');
      const field = at < 0 ? line : line.slice(0, at);
      const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    if (id !== null) this.lastId = id;
    if (data.length === 0) return;
    this.messages.push({ event, id, data: JSON.parse(data.join('\n')) });
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  /** The first message (from the start) that fits; fails after the timeout. */
  async next(fits: (message: SseMessage) => boolean, timeoutMs = 20_000): Promise<SseMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(fits);
      if (found) return found;
      if (this.ended) throw new Error(`stream ended; got ${JSON.stringify(this.messages)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no fitting message within ${timeoutMs} ms; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the server to end the stream. */
  async waitEnded(timeoutMs = 20_000): Promise<void> {
    await Promise.race([this.done, new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), timeoutMs))]);
  }

  changes(): Array<{ kinds: string[]; records: Array<{ kind: string; id: string; revision: number | null }> }> {
    return this.messages.filter((m) => m.event === 'change').map((m) => m.data);
  }

  close(): void {
    this.abort.abort();
  }
}

const open: SseStream[] = [];
async function stream(client: ApiClient, path = LIVE, headers?: Record<string, string>): Promise<SseStream> {
  const opened = await SseStream.open(client, path, headers);
  open.push(opened);
  return opened;
}

const names = (id: string) => (m: SseMessage) =>
  m.event === 'change' && (m.data.records as Array<{ id: string }>).some((record) => record.id === id);

async function createJob(client: ApiClient, instance: string, name: string): Promise<string> {
  const res = await client.post(`/api/${instance}/pipeline`, { name, part: 'Brake pads', stage: 'Quote' });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'liveshop');
  await createTestInstance(server, 'liveother');
  owner = await signInUser(server, 'liveshop', 'owner', '1234');
  expect((await owner.post('/api/admin/users', { username: 'writer', displayName: 'Wes Writer', pin: '2222' })).status).toBe(201);
  writer = await signInUser(server, 'liveshop', 'writer', '2222');
  otherOwner = await signInUser(server, 'liveother', 'owner', '1234');
  superAdmin = await signInSuperAdmin(server);
});
afterAll(async () => {
  for (const s of open) s.close();
  await server?.stop();
});

describe('two sessions of one instance', () => {
  test("each sees the other's changes: the kinds and the records, with their revisions", async () => {
    const ownerStream = await stream(owner);
    const writerStream = await stream(writer);

    const jobId = await createJob(writer, 'liveshop', 'Live Lee');
    const seen = await ownerStream.next(names(jobId));
    expect(seen.data.kinds).toEqual(expect.arrayContaining(['jobs', 'calendar', 'customers', 'audit']));
    expect(seen.data.records).toContainEqual({ kind: 'jobs', id: jobId, revision: expect.any(Number) });
    expect(seen.id).toMatch(/^-?\d+\.-?\d+$/);
    // The writer's own stream says so too (other tabs of the same user).
    await writerStream.next(names(jobId));

    const update = await owner.patch(`/api/liveshop/pipeline/${jobId}/stage`, { stage: 'Parts Ordered' });
    expect(update.status).toBe(200);
    const moved = await writerStream.next(
      (m) => m.event === 'change' && m.data.records.some((r: any) => r.id === jobId && r.revision === update.body.revision),
    );
    expect(moved.data.kinds).toContain('jobs');
    // A user who does not manage users hears nothing of the audit log.
    expect(moved.data.kinds).not.toContain('audit');
  });

  test('accounts are heard only by those who manage users (and by the account itself)', async () => {
    const ownerStream = await stream(owner);
    const writerStream = await stream(writer);
    const created = await owner.post('/api/admin/users', { username: 'newbie', displayName: 'New Bie', pin: '3333' });
    expect(created.status).toBe(201);
    const userId = created.body.id as string;
    await ownerStream.next((m) => m.event === 'change' && m.data.records.some((r: any) => r.kind === 'users' && r.id === userId));

    // After it, a job change the writer hears: by then the account's change had passed too.
    const jobId = await createJob(owner, 'liveshop', 'After Account');
    await writerStream.next(names(jobId));
    expect(
      writerStream
        .changes()
        .flatMap((c) => c.records)
        .filter((r) => r.kind === 'users'),
    ).toEqual([]);
    expect(writerStream.changes().flatMap((c) => c.kinds)).not.toContain('users');

    // The writer's own account: heard (their permissions may have changed).
    const writerId = (await writer.get('/api/user/current')).body.id;
    expect(typeof writerId).toBe('string');
    expect((await owner.patch(`/api/admin/users/${writerId}/permissions`, { canDelete: true })).status).toBe(200);
    await writerStream.next((m) => m.event === 'change' && m.data.records.some((r: any) => r.kind === 'users' && r.id === writerId));
  });

  test('a user whose canRead is taken away hears nothing of jobs from then on', async () => {
    const created = await owner.post('/api/admin/users', { username: 'blind', displayName: 'Bea Blind', pin: '4444' });
    expect(created.status).toBe(201);
    const blindId = created.body.id as string;
    const blind = await signInUser(server, 'liveshop', 'blind', '4444');
    const blindStream = await stream(blind);
    const ownChanges = () => blindStream.changes().filter((c) => c.records.some((r) => r.id === blindId));
    expect((await owner.patch(`/api/admin/users/${blindId}/permissions`, { canRead: false })).status).toBe(200);
    // The stream hears its own account change, and reads again what the user may hear.
    await expect.poll(() => ownChanges().length, { timeout: 20_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const jobId = await createJob(owner, 'liveshop', 'Hidden Job');
    // The marker: a change the user does hear (their own account again), after the job.
    expect((await owner.patch(`/api/admin/users/${blindId}/permissions`, { canDelete: true })).status).toBe(200);
    await expect.poll(() => ownChanges().length, { timeout: 20_000 }).toBe(2);
    const heard = blindStream.changes();
    expect(heard.flatMap((c) => c.records).some((r) => r.id === jobId)).toBe(false);
    expect(heard.flatMap((c) => c.kinds).filter((k) => k === 'jobs' || k === 'customers')).toEqual([]);
  });
});

describe('tenant isolation', () => {
  test("another instance's session hears nothing of this one", async () => {
    const otherStream = await stream(otherOwner, '/api/liveother/live');
    const jobId = await createJob(owner, 'liveshop', 'Secret Sam');
    // The marker: the other instance's own change, after this one.
    const otherJob = await createJob(otherOwner, 'liveother', 'Other Olga');
    await otherStream.next(names(otherJob));
    const heard = otherStream.changes().flatMap((c) => c.records);
    expect(heard.some((r) => r.id === jobId)).toBe(false);
    expect(JSON.stringify(otherStream.messages)).not.toContain('Secret');
  });

  test('the stream of another instance, no session, or the super admin is refused', async () => {
    const res = await owner.get('/api/liveother/live');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect((await new ApiClient(server.url).get(LIVE)).status).toBe(401);
    expect((await superAdmin.get(LIVE)).status).toBe(403);
    expect((await owner.get(`${LIVE}?lastEventId=${'9'.repeat(60)}`)).status).toBe(400);
  });
});

describe('reconnecting', () => {
  test('with Last-Event-ID, the stream sends what happened while it was away', async () => {
    const first = await stream(owner);
    const before = await createJob(owner, 'liveshop', 'Before Drop');
    await first.next(names(before));
    const lastId = first.lastId!;
    first.close();

    const missed = await createJob(writer, 'liveshop', 'While Away');
    // Wait until the change is in the read models (its own answer says so), then reconnect.
    const resumed = await stream(owner, LIVE, { 'last-event-id': lastId });
    const caught = await resumed.next(names(missed));
    expect(caught.data.kinds).toContain('jobs');
    // Nothing from before the id comes again.
    expect(
      resumed
        .changes()
        .flatMap((c) => c.records)
        .some((r) => r.id === before),
    ).toBe(false);

    // The query parameter does the same (a screen that opens the stream anew).
    const viaQuery = await stream(owner, `${LIVE}?lastEventId=${encodeURIComponent(lastId)}`);
    await viaQuery.next(names(missed));
  });

  test('an id that is none of ours starts from now', async () => {
    const s = await stream(owner, LIVE, { 'last-event-id': 'garbage' });
    const jobId = await createJob(owner, 'liveshop', 'Fresh Start');
    await s.next(names(jobId));
    const far = await stream(owner, LIVE, { 'last-event-id': '99999999999.99999999999' });
    const later = await createJob(owner, 'liveshop', 'Later On');
    await far.next(names(later));
  });
});

describe('the cap', () => {
  test('a session holds at most 6 streams: a seventh closes the oldest', async () => {
    const capped = await signInUser(server, 'liveshop', 'writer', '2222');
    const streams: SseStream[] = [];
    for (let i = 0; i < 6; i++) streams.push(await stream(capped));
    const seventh = await stream(capped);
    await streams[0]!.waitEnded();
    // It was told why, so the browser does not reconnect (and close another tab's stream in turn).
    expect(streams[0]!.messages.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'too-many-streams' } });
    for (const s of streams.slice(1)) expect(s.ended).toBe(false);
    const jobId = await createJob(owner, 'liveshop', 'Capped Cap');
    await seventh.next(names(jobId));
    await streams[1]!.next(names(jobId));
  });

  test('signing out ends the stream', async () => {
    const session = await signInUser(server, 'liveshop', 'writer', '2222');
    const s = await stream(session);
    expect((await session.post('/api/auth/logout')).status).toBeLessThan(300);
    await s.waitEnded(30_000);
    expect(s.messages.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'signed-out' } });
  }, 60_000);

  test('a session ended by signing out or by a PIN change elsewhere hears no change made after it ended', async () => {
    const signedOut = await signInUser(server, 'liveshop', 'writer', '2222');
    const first = await stream(signedOut);
    expect((await signedOut.post('/api/auth/logout')).status).toBeLessThan(300);
    const afterSignOut = await createJob(owner, 'liveshop', 'After Sign Out');

    expect((await owner.post('/api/admin/users', { username: 'pinchanger', pin: '3333' })).status).toBe(201);
    const elsewhere = await signInUser(server, 'liveshop', 'pinchanger', '3333');
    const here = await signInUser(server, 'liveshop', 'pinchanger', '3333');
    const second = await stream(elsewhere);
    const kept = await stream(here);
    expect((await here.put('/api/user/pin', { currentPin: '3333', newPin: '4444' })).status).toBe(204);
    const afterPinChange = await createJob(owner, 'liveshop', 'After PIN Change');

    await first.waitEnded(30_000);
    await second.waitEnded(30_000);
    expect(first.messages.some(names(afterSignOut))).toBe(false);
    expect(second.messages.some(names(afterPinChange))).toBe(false);
    expect(second.messages.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'signed-out' } });
    // The browser that changed the PIN goes on hearing.
    await kept.next(names(afterPinChange));
  }, 60_000);
});

describe('a closed instance', () => {
  test("its users' streams hear that it changed and end", async () => {
    const closing = await createTestInstance(server, 'liveclosing');
    const closingOwner = await signInUser(server, 'liveclosing', 'owner', '1234');
    const s = await stream(closingOwner, '/api/liveclosing/live');
    expect((await superAdmin.patch(`/api/crm-instances/${closing.id}`, { isActive: false })).status).toBe(200);
    await s.waitEnded(30_000);
    // The provider's change names the instance (its metadata has none), then the stream is closed.
    expect(s.changes().some((c) => c.kinds.includes('instance') && c.records.some((r) => r.id === closing.id))).toBe(true);
    expect(s.messages.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'signed-out' } });
  }, 60_000);
});

describe('several API processes', () => {
  test('a stream on a second API process (no projector of its own) hears changes made through the first, and resumes there', async () => {
    // A second API process on the same database and session secret, as a load balancer would put beside the first.
    const second = await startSecondApiProcess(server);
    try {
      // The owner's session (made on the first process) opens a stream on the second.
      const onSecond = new ApiClient(second.url);
      onSecond.cookieHeader = () => owner.cookieHeader();
      const remote = await stream(onSecond);
      const jobId = await createJob(writer, 'liveshop', 'Across Processes');
      await remote.next(names(jobId));

      // A browser that was on the first process reconnects to the second with its Last-Event-ID.
      const first = await stream(owner);
      const lastId = first.lastId!;
      first.close();
      const missed = await createJob(writer, 'liveshop', 'Missed Meanwhile');
      const resumed = await stream(onSecond, LIVE, { 'last-event-id': lastId });
      await resumed.next(names(missed));
      remote.close();
      resumed.close();
    } finally {
      await second.stop();
    }
  }, 60_000);
});

// Last in this file: it stops the server's projector (a fresh one takes over, for this test alone).
describe('a session found ended before its streams heard why', () => {
  test('the stream is sent the change that ended it, then closed', async () => {
    const closing = await createTestInstance(server, 'liveheldback');
    const closingOwner = await signInUser(server, 'liveheldback', 'owner', '1234');
    const s = await stream(closingOwner, '/api/liveheldback/live');
    // No projector: the instance's row says closed (written with its event), but the change
    // streams hear follows the projector's checkpoint, which now stays where it is.
    await server.runtime.projector!.stop();
    expect((await superAdmin.patch(`/api/crm-instances/${closing.id}`, { isActive: false })).status).toBe(200);
    // The periodic recheck (a timer runs it every 10 s), driven here: it finds the instance
    // closed, and the stream, which has not heard why, waits for its change.
    await liveHubOf(server.runtime.deps).recheck();
    expect(s.ended).toBe(false);
    const { store, knex, config } = server.runtime.deps;
    const projector = new Projector({ store, knex, connectionString: config.DATABASE_URL!, projections, schema: READ_MODEL_SCHEMA });
    projector.start();
    try {
      await s.waitEnded(30_000);
      expect(s.changes().some((c) => c.kinds.includes('instance') && c.records.some((r) => r.id === closing.id))).toBe(true);
      expect(s.messages.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'signed-out' } });
    } finally {
      await projector.stop();
    }
  }, 90_000);
});
