import { randomUUID } from 'node:crypto';
import { readableEvents, type DomainEvent, type StoredDomainEvent } from '@crm/projections/events';
import {
  WrongExpectedVersionError,
  type Actor,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type StreamAppend,
} from '@crm/projections/eventstore/port';
import { schemaVersionOf } from '@crm/projections/upcasters';
import { ConflictError } from './errors.ts';

/** Pure domain logic of one aggregate: no I/O, no clock, no id generation. */
export interface Decider<State, Command, Event extends DomainEvent = DomainEvent> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
}

/** Who, why and when: becomes every appended event's metadata. */
export interface CommandContext {
  instanceId: string | null;
  actor: Actor;
  correlationId: string;
  causationId?: string | null;
  now: Date;
}

/** What the server does on its own (bootstrap, seeding): a system actor, no instance. */
export function systemContext(now: Date, id = 'bootstrap', displayName = 'System'): CommandContext {
  return { instanceId: null, actor: { kind: 'system', id, displayName }, correlationId: id, now };
}

/** A command inside one instance: the instance is always known. */
export type InstanceContext = CommandContext & { instanceId: string };

export function toNewEvents(events: DomainEvent[], ctx: CommandContext): NewEvent[] {
  return events.map((event) => ({
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: {
      instanceId: ctx.instanceId,
      actor: ctx.actor,
      correlationId: ctx.correlationId,
      causationId: ctx.causationId ?? null,
      occurredAt: ctx.now.toISOString(),
      // The version its type's upcasters read it as (see @crm/projections/upcasters).
      schemaVersion: schemaVersionOf(event.type),
    },
  }));
}

export interface LoadedStream<State> {
  state: State;
  /** Revision of the last event, or null when the stream does not exist. */
  revision: number | null;
  /** The stream's events; empty when the state was read from the record's row (`read`). */
  events: StoredDomainEvent[];
  /**
   * The state came from the record's read-model row, not from folding its stream: those
   * rows, by inline projection, go with the append in place of the projection's own read
   * (AppendOptions.read; valid because the append expects `revision`, the row's).
   */
  read?: ReadonlyMap<string, readonly Record<string, unknown>[]>;
}

export async function loadAggregate<State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Pick<Decider<State, unknown, Event>, 'initialState' | 'evolve'>,
  options: { upTo?: Date } = {},
): Promise<LoadedStream<State>> {
  const recorded = await store.readStream(streamId, options);
  const events = readableEvents(recorded).events;
  const state = events.reduce((s, e) => decider.evolve(s, e as unknown as Event), decider.initialState);
  const last = recorded[recorded.length - 1];
  return { state, revision: last ? last.revision : null, events };
}

/** An event as a command recorded it: the decided event with its id, revision and global position. */
export type RecordedCommandEvent<Event extends DomainEvent> = Event & {
  id: string;
  streamId: string;
  revision: number;
  position: GlobalPosition;
  metadata: EventMetadata;
};

export interface CommandResult<State, Event extends DomainEvent> {
  state: State;
  /** What the command recorded, in order (empty when the decision produced no events). */
  events: RecordedCommandEvent<Event>[];
  /** Null when the decision produced no events. */
  appended: AppendResult | null;
  revision: number | null;
  /**
   * The whole stream after the command, as the event store has it (recorded times
   * included), when the store said when it recorded the new events and the command read
   * the stream (not the record's row): a record can be folded from it without reading it back.
   */
  stream: StoredDomainEvent[] | null;
  /** What the command's `alongside` appended with it, in order. */
  alongside?: AppendResult[];
}

/**
 * Load → decide → append with the revision read. A concurrent writer makes the append
 * fail; the command is then re-decided on fresh state (bounded), unless the caller pinned
 * the revision it saw (If-Match), in which case the conflict is the caller's to resolve.
 */
export async function executeCommand<State, Command, Event extends DomainEvent>(options: {
  store: EventStore;
  streamId: string;
  decider: Decider<State, Command, Event>;
  command: Command;
  ctx: CommandContext;
  expectedRevision?: number;
  attempts?: number;
  /** The stream is new (a fresh random id): decide on the initial state without reading it; should it exist after all, the append fails and the retry reads it. */
  newStream?: boolean;
  /** The stream as the caller has just read it: the first attempt decides on it (a retry reads again). */
  loaded?: LoadedStream<State>;
  /**
   * Reads the state for the first attempt when `loaded` is not given (or is dropped after a
   * wait for the stream's turn): the record's row where it has one, so the stream is not
   * read and folded; null falls back to the fold. A retry always folds the stream (a row
   * that trails it, such as one the projector has still to catch up on, is not decided on
   * twice).
   */
  load?: () => Promise<LoadedStream<State> | null>;
  /**
   * Appends to other streams that belong to the decision (freeing a deleted job's number),
   * from the state after it and before it: recorded with the command's events in one appendMany, all or
   * nothing. A concurrent change of one of them makes the command try again like its own.
   * It is also where a rule that needs another read of the command's own stream refuses
   * (by throwing): it runs in every attempt, after the decision and before the append, so
   * what it read is never older than the revision the append expects.
   */
  alongside?: (state: State, before: State) => Promise<StreamAppend[]>;
  /** Gets the command's result before the next command of this process on the stream starts (in its turn). */
  recorded?: (result: CommandResult<State, Event>) => void;
}): Promise<CommandResult<State, Event>> {
  // Commands that take the stream as it is (no If-Match) queue per stream in this process:
  // a burst of them on one record then appends one after the other instead of colliding,
  // re-reading and running out of attempts (200 racing saves used to end mostly in 409s).
  // Pinned ones (If-Match) need no turn: they either fit the revision or are a 409 at once.
  if (options.expectedRevision === undefined && !options.newStream) {
    // A stream the caller read before waiting its turn has moved on: read it again in turn.
    const waits = streamTurns.has(options.streamId);
    return await inStreamTurn(options.streamId, () => decideRecorded(waits ? { ...options, loaded: undefined } : options));
  }
  return await decideRecorded(options);
}

async function decideRecorded<State, Command, Event extends DomainEvent>(
  options: Parameters<typeof executeCommand<State, Command, Event>>[0],
): Promise<CommandResult<State, Event>> {
  const result = await decideAndAppend(options);
  options.recorded?.(result);
  return result;
}

/** Per-stream queues of this process's commands (see executeCommand). */
const streamTurns = new Map<string, Promise<void>>();

async function inStreamTurn<T>(streamId: string, work: () => Promise<T>): Promise<T> {
  const previous = streamTurns.get(streamId) ?? Promise.resolve();
  let release!: () => void;
  const turn = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => turn);
  streamTurns.set(streamId, tail);
  await previous;
  try {
    return await work();
  } finally {
    release();
    if (streamTurns.get(streamId) === tail) streamTurns.delete(streamId);
  }
}

async function decideAndAppend<State, Command, Event extends DomainEvent>(
  options: Parameters<typeof executeCommand<State, Command, Event>>[0],
): Promise<CommandResult<State, Event>> {
  const attempts = options.expectedRevision === undefined ? (options.attempts ?? 3) : 1;
  for (let attempt = 1; ; attempt++) {
    const loaded: LoadedStream<State> =
      attempt === 1 && options.loaded
        ? options.loaded
        : options.newStream && attempt === 1 && options.expectedRevision === undefined
          ? { state: options.decider.initialState, revision: null, events: [] }
          : ((attempt === 1 ? await options.load?.() : null) ?? (await loadAggregate(options.store, options.streamId, options.decider)));
    if (options.expectedRevision !== undefined && loaded.revision !== options.expectedRevision) {
      throw new ConflictError('This record was changed by someone else. Reload it and try again.', {
        currentRevision: loaded.revision,
      });
    }
    try {
      const decided = await decideOn(options, loaded);
      if (!decided) return { state: loaded.state, events: [], appended: null, revision: loaded.revision, stream: loaded.events };
      const { events, own, extra } = decided;
      if (extra.length > 0) {
        const [appended, ...others] = await options.store.appendMany([own, ...extra], loaded.read ? { read: loaded.read } : {});
        return { ...recordedResult(options.decider, options.streamId, loaded, events, own.events, appended!), alongside: others };
      }
      const appended = await options.store.append(options.streamId, own.events, {
        expectedRevision: own.expectedRevision,
        ...(loaded.read ? { read: loaded.read } : {}),
      });
      return recordedResult(options.decider, options.streamId, loaded, events, own.events, appended);
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (attempt >= attempts) {
        throw new ConflictError('This record was changed by someone else at the same time. Please try again.');
      }
    }
  }
}

/**
 * The command decided on the loaded stream: its events, their append (expecting the revision
 * they were decided on) and what `alongside` adds to it from the state after and before.
 * Null when the decision is no events.
 */
async function decideOn<State, Command, Event extends DomainEvent>(
  options: Pick<Parameters<typeof executeCommand<State, Command, Event>>[0], 'streamId' | 'decider' | 'command' | 'ctx' | 'alongside'>,
  loaded: LoadedStream<State>,
): Promise<{ events: Event[]; state: State; own: StreamAppend; extra: StreamAppend[] } | null> {
  const events = options.decider.decide(options.command, loaded.state);
  if (events.length === 0) return null;
  const expectedRevision: ExpectedRevision = loaded.revision === null ? 'no_stream' : loaded.revision;
  const own: StreamAppend = { streamId: options.streamId, events: toNewEvents(events, options.ctx), expectedRevision };
  const state = events.reduce((s, e) => options.decider.evolve(s, e), loaded.state);
  const extra = options.alongside ? await options.alongside(state, loaded.state) : [];
  return { events, state, own, extra };
}

/**
 * What executeCommand would append for the command (its own stream's events and what
 * `alongside` adds), decided on the stream as it is now but not appended: for a command
 * recorded in another command's append (a customer's vehicles deleted with it), whose
 * expected revisions make that append fail, and retry, if a stream moves on meanwhile.
 * No appends when the decision is no events; a refusal throws as executeCommand's would.
 */
export async function decideAppends<State, Command, Event extends DomainEvent>(
  options: Pick<
    Parameters<typeof executeCommand<State, Command, Event>>[0],
    'store' | 'streamId' | 'decider' | 'command' | 'ctx' | 'alongside'
  >,
): Promise<{ state: State; events: Event[]; appends: StreamAppend[] }> {
  const loaded = await loadAggregate(options.store, options.streamId, options.decider);
  const decided = await decideOn(options, loaded);
  if (!decided) return { state: loaded.state, events: [], appends: [] };
  return { state: decided.state, events: decided.events, appends: [decided.own, ...decided.extra] };
}

/** What a command recorded, as its result: the state after it and its events with ids, revisions and positions. */
function recordedResult<State, Command, Event extends DomainEvent>(
  decider: Decider<State, Command, Event>,
  streamId: string,
  loaded: LoadedStream<State>,
  events: Event[],
  newEvents: NewEvent[],
  appended: AppendResult,
): CommandResult<State, Event> {
  const state = events.reduce((s, e) => decider.evolve(s, e), loaded.state);
  const first = appended.nextRevision - (events.length - 1);
  const recorded = events.map((event, i) => ({
    ...event,
    id: newEvents[i]!.id,
    streamId,
    revision: first + i,
    position: appended.positions[i]!,
    metadata: newEvents[i]!.metadata,
  }));
  const recordedAt = appended.recordedAt;
  const stream =
    recordedAt && recordedAt.length === recorded.length && !loaded.read
      ? [...loaded.events, ...recorded.map((event, i) => ({ ...event, recordedAt: recordedAt[i]! }) as unknown as StoredDomainEvent)]
      : null;
  return { state, events: recorded, appended, revision: appended.nextRevision, stream };
}

/**
 * A command on a new stream, decided but not yet appended: for a command that records
 * several streams at once (EventStore.appendMany), all or nothing. `append` goes into that
 * call; `result` turns its answer for this stream into what executeCommand would answer.
 */
export function decideNewStream<State, Command, Event extends DomainEvent>(options: {
  streamId: string;
  decider: Decider<State, Command, Event>;
  command: Command;
  ctx: CommandContext;
}): { append: StreamAppend; result(appended: AppendResult): CommandResult<State, Event> } {
  const loaded: LoadedStream<State> = { state: options.decider.initialState, revision: null, events: [] };
  const events = options.decider.decide(options.command, loaded.state);
  const newEvents = toNewEvents(events, options.ctx);
  return {
    append: { streamId: options.streamId, events: newEvents, expectedRevision: 'no_stream' },
    result: (appended) => recordedResult(options.decider, options.streamId, loaded, events, newEvents, appended),
  };
}
