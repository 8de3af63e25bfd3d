import type { Writable } from 'node:stream';
import { LIVE_EVENTS } from '@crm/projections/contract';
import { comparePositions, type GlobalPosition } from '@crm/projections/eventstore/port';
import { MAIN_CHECKPOINT } from '@crm/projections/runtime/checkpoints';
import type { AppDeps } from '../deps.ts';
import { PRINCIPAL_COLUMNS, principalOfRow, type UserPrincipal, type UserRow } from '../http/auth.ts';
import { onSessionsEnded } from '../http/session-store.ts';
import { type Change, changeFor, summarize } from './changes.ts';
import { LiveConnection } from './live-connection.ts';

/** Streams one browser session may hold open at once (tabs); a new one past it closes the oldest. */
export const LIVE_STREAMS_PER_SESSION = 6;
/** Changes the hub remembers, so a browser that reconnects after a short gap is answered from memory. */
const BUFFER_MAX = 10_000;
/** Events a reconnecting stream may read from the store to catch up; past that it is told to read everything again. */
const CATCH_UP_MAX = 5_000;
const READ_BATCH = 500;
/** A comment line now and then keeps proxies from closing an idle stream (and carries the position). */
const HEARTBEAT_MS = 20_000;
/** Sessions and permissions are checked again this often (sign-out, lock, a permission taken away). */
const RECHECK_MS = 10_000;
/** When the checkpoint notifications are not arriving (LISTEN connection down), the checkpoint is read this often. */
const FALLBACK_POLL_MS = 1_000;
/** How long a stream whose session ended waits for the change that ended it before it is closed anyway. */
const END_WAIT_MS = 30_000;

function maxPosition(a: GlobalPosition, b: GlobalPosition): GlobalPosition {
  return comparePositions(a, b) >= 0 ? a : b;
}

/**
 * The process's live-update hub. It follows the read models' checkpoint (in this process
 * through the projector's own call, from other processes through PostgreSQL LISTEN/NOTIFY),
 * reads the events the checkpoint passed once from the event store, and sends each open
 * stream what its user may hear. Positions are the event log's, so a browser that reconnects
 * (to this process or another) with its Last-Event-ID is sent what it missed: from memory
 * when recent, else read again from the store.
 */
export class LiveHub {
  private position: GlobalPosition;
  /** The buffer holds every change after this position. */
  private floor: GlobalPosition;
  private target: GlobalPosition;
  private buffer: Change[] = [];
  private readonly connections = new Set<LiveConnection>();
  private pumping: Promise<void> | null = null;
  private recheckTimer: NodeJS.Timeout | null = null;
  private readonly timers: NodeJS.Timeout[];
  private readonly unsubscribe: () => void;
  private readonly unsubscribeSessions: () => void;
  private closed = false;

  constructor(private readonly deps: AppDeps) {
    this.position = deps.watcher.current();
    this.floor = this.position;
    this.target = this.position;
    this.unsubscribe = deps.watcher.onAdvance((name, position) => {
      if (name === MAIN_CHECKPOINT) this.advanceTo(position);
    });
    // A session ended here (sign-out, PIN change, lock, delete): its streams end now, before
    // the next change could reach them; sessions ended by another process wait for the recheck.
    this.unsubscribeSessions = onSessionsEnded((ended) => {
      for (const connection of [...this.connections]) {
        const mine =
          connection.sessionKey === ended.sessionId ||
          (ended.userId === connection.principal.userId && connection.sessionKey !== ended.keepSessionId);
        if (mine) connection.close('signed-out');
      }
    });
    this.timers = [
      setInterval(() => {
        for (const connection of this.connections) if (connection.live) connection.heartbeat();
      }, HEARTBEAT_MS),
      setInterval(() => void this.recheck(), RECHECK_MS),
      setInterval(() => {
        if (this.connections.size === 0) return;
        // Notifications missing (LISTEN down) or a pump that stopped short: read the checkpoint.
        if (!this.deps.watcher.listening || comparePositions(this.position, this.target) < 0)
          void this.deps.watcher
            .refresh()
            .then((position) => this.advanceTo(position))
            .catch(() => undefined);
      }, FALLBACK_POLL_MS),
    ];
    for (const timer of this.timers) timer.unref();
  }

  get streams(): number {
    return this.connections.size;
  }

  /** Opens a stream for a session, resuming after `from` (the browser's Last-Event-ID) when given. */
  async attach(sessionKey: string, principal: UserPrincipal, out: Writable, from: GlobalPosition | null): Promise<LiveConnection> {
    let start = from ?? this.position;
    // A position beyond what the read models show is no browser's: start from the checkpoint.
    if (from && comparePositions(from, this.position) > 0) {
      const checkpoint = await this.deps.watcher.refresh().catch(() => this.position);
      if (comparePositions(from, checkpoint) > 0) start = maxPosition(checkpoint, this.position);
    }
    const connection = new LiveConnection(sessionKey, principal, out, start, (closed) => this.connections.delete(closed));
    if (this.closed) {
      connection.close();
      return connection;
    }
    // The cap: the session's oldest streams make room for the new one.
    const same = [...this.connections].filter((c) => c.sessionKey === sessionKey).sort((a, b) => a.openedAt - b.openedAt);
    for (const oldest of same.slice(0, Math.max(0, same.length - LIVE_STREAMS_PER_SESSION + 1))) oldest.close('too-many-streams');
    this.connections.add(connection);
    connection.send(LIVE_EVENTS.ready, connection.sentUpTo, {});
    await this.catchUp(connection);
    return connection;
  }

  /**
   * Sends what happened after the connection's position, then hands it to the broadcasts. A
   * stream whose session was found ended meanwhile (endsAt) is sent no further than that and,
   * once there, closed.
   */
  private async catchUp(connection: LiveConnection): Promise<void> {
    let scanned = 0;
    const limit = () => (connection.endsAt && comparePositions(connection.endsAt, this.position) < 0 ? connection.endsAt : this.position);
    while (!connection.closed) {
      if (comparePositions(connection.sentUpTo, limit()) >= 0) break;
      if (comparePositions(this.floor, connection.sentUpTo) <= 0) {
        // From memory, in the same tick as joining the broadcasts: nothing falls between.
        const upTo = limit();
        const missed = this.buffer.filter(
          (change) => comparePositions(change.position, connection.sentUpTo) > 0 && comparePositions(change.position, upTo) <= 0,
        );
        const message = changeFor(connection.principal, missed);
        connection.sentUpTo = upTo;
        if (message) connection.send(LIVE_EVENTS.change, upTo, message);
        break;
      }
      if (scanned >= CATCH_UP_MAX) {
        connection.sentUpTo = limit();
        connection.send(LIVE_EVENTS.reset, connection.sentUpTo, {});
        break;
      }
      const events = await this.deps.store.readAll(connection.sentUpTo, READ_BATCH);
      scanned += events.length;
      const upTo = limit();
      const changes: Change[] = [];
      let last: GlobalPosition | null = null;
      for (const event of events) {
        if (comparePositions(event.position, upTo) > 0) break;
        last = event.position;
        const change = summarize(event);
        if (change) changes.push(change);
      }
      if (!last) break;
      const message = changeFor(connection.principal, changes);
      connection.sentUpTo = last;
      if (message) connection.send(LIVE_EVENTS.change, last, message);
    }
    if (connection.closed) return;
    if (connection.endsAt && comparePositions(connection.sentUpTo, connection.endsAt) >= 0) connection.close('signed-out');
    else connection.live = true;
  }

  private advanceTo(position: GlobalPosition): void {
    if (this.closed) return;
    this.target = maxPosition(this.target, position);
    if (comparePositions(this.position, this.target) >= 0 || this.pumping) return;
    this.pumping = this.pump()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'live updates: reading the event log failed; retrying'))
      .finally(() => {
        this.pumping = null;
      });
  }

  /** Reads the events up to the checkpoint, keeps them, and sends each stream its share. */
  private async pump(): Promise<void> {
    while (!this.closed && comparePositions(this.position, this.target) < 0) {
      const events = await this.deps.store.readAll(this.position, READ_BATCH);
      const changes: Change[] = [];
      let last: GlobalPosition | null = null;
      for (const event of events) {
        if (comparePositions(event.position, this.target) > 0) break;
        last = event.position;
        const change = summarize(event);
        if (change) changes.push(change);
      }
      // Nothing readable up to the checkpoint yet: the fallback poll tries again.
      if (!last) return;
      this.position = last;
      this.remember(changes);
      this.broadcast(changes);
    }
  }

  private remember(changes: Change[]): void {
    this.buffer.push(...changes);
    if (this.buffer.length > BUFFER_MAX) {
      const dropped = this.buffer.splice(0, this.buffer.length - BUFFER_MAX);
      this.floor = dropped[dropped.length - 1]!.position;
    }
  }

  private broadcast(changes: Change[]): void {
    let recheck = false;
    for (const connection of [...this.connections]) {
      if (!connection.live) continue;
      const endsAt = connection.endsAt;
      const upTo = endsAt && comparePositions(endsAt, this.position) < 0 ? endsAt : this.position;
      const fresh = changes.filter(
        (change) => comparePositions(change.position, connection.sentUpTo) > 0 && comparePositions(change.position, upTo) <= 0,
      );
      connection.sentUpTo = maxPosition(connection.sentUpTo, upTo);
      const message = fresh.length > 0 ? changeFor(connection.principal, fresh) : null;
      if (message) connection.send(LIVE_EVENTS.change, connection.sentUpTo, message);
      if (endsAt) {
        if (comparePositions(upTo, endsAt) >= 0) connection.close('signed-out');
        continue;
      }
      if (fresh.length === 0) continue;
      // The user's own account or instance changed: what they may hear may have too.
      const principal = connection.principal;
      if (
        fresh.some(
          (change) =>
            (change.kind === 'users' && change.id === principal.userId) ||
            (change.kind === 'instance' && change.id === principal.instance.id),
        )
      )
        recheck = true;
    }
    if (recheck && !this.recheckTimer) {
      this.recheckTimer = setTimeout(() => {
        this.recheckTimer = null;
        void this.recheck();
      }, 50);
    }
  }

  /**
   * Every stream's session and user as they are now, in one query: a signed-out session, a
   * locked or deleted user or a closed instance ends the stream; changed permissions apply
   * to what it sends from now on. A timer runs it every RECHECK_MS; tests call it to drive it.
   */
  async recheck(): Promise<void> {
    const connections = [...this.connections].filter((connection) => !connection.endsAt);
    if (connections.length === 0) return;
    const keys = [...new Set(connections.map((c) => c.sessionKey))];
    let rows: Array<UserRow & { session_id: string }>;
    try {
      const result = await this.deps.knex.raw<{ rows: Array<UserRow & { session_id: string }> }>(
        `SELECT s.id AS session_id, ${PRINCIPAL_COLUMNS}
           FROM sessions s
           JOIN rm.users u ON u.id = s.user_id AND u.instance_id = s.instance_id
           JOIN rm.user_permissions p ON p.user_id = u.id
           JOIN rm.crm_instances i ON i.id = u.instance_id
          WHERE s.id = ANY(?) AND s.kind = 'user' AND s.expires_at > now()`,
        [keys],
      );
      rows = result.rows;
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'live updates: checking the streams’ sessions failed');
      return;
    }
    const bySession = new Map(rows.map((row) => [row.session_id, principalOfRow(row)]));
    const ending: LiveConnection[] = [];
    for (const connection of connections) {
      const principal = bySession.get(connection.sessionKey);
      if (!principal || principal.isLocked || !principal.instance.isActive || principal.userId !== connection.principal.userId)
        ending.push(connection);
      else connection.principal = principal;
    }
    if (ending.length > 0) await this.endAfterWhatEndedThem(ending);
  }

  /**
   * Ends streams whose session the recheck found ended. The rows it read are written with the
   * events (an instance closed, a user locked), while the changes streams hear follow the
   * asynchronous checkpoint, so under load the recheck can find a session ended before its
   * streams heard why: each stream is first sent the log up to what was written when it was
   * found ended (nothing after), then closed; after END_WAIT_MS it is closed regardless.
   */
  private async endAfterWhatEndedThem(connections: LiveConnection[]): Promise<void> {
    const head = await this.deps.store.headPosition().catch(() => this.position);
    for (const connection of connections) {
      if (connection.closed) continue;
      // A live stream has been sent everything up to the hub's position; one still catching up
      // goes no further than the head and is closed there by its catch-up (catchUp).
      if (connection.live && comparePositions(this.position, head) >= 0) {
        connection.close('signed-out');
        continue;
      }
      connection.endsAt = head;
      setTimeout(() => connection.close('signed-out'), END_WAIT_MS).unref();
    }
  }

  /** Ends every stream (the server is stopping: open streams would keep it from closing). */
  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.unsubscribeSessions();
    for (const timer of this.timers) clearInterval(timer);
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    for (const connection of [...this.connections]) connection.close();
  }
}
