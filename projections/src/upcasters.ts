import { messageFailureUpcasters } from './messages/recorded-causes.ts';

/**
 * Event schema evolution. Events are never rewritten: an event recorded in an older shape is
 * read as the current one by a chain of upcasters, each taking the data of one schema
 * version (metadata.schemaVersion) to the next. Every reader goes through parseStoredEvent,
 * so deciders, projections, reactors, history and rebuilds all see current shapes only.
 *
 * A field added as optional needs no upcaster (old events satisfy the schema as they are,
 * e.g. CrmInstanceCreated's timeZone, whose absence means "the server's zone"). An upcaster
 * is needed when a field is renamed, split, made required or changes meaning, or when its
 * absence in old events is to be told from what they recorded: register it here under its
 * event type, in version order, and new events of that type are then written with the next
 * version (schemaVersionOf).
 */

export interface Upcaster {
  /** The version this upcaster reads; it answers the data as version `from + 1`. */
  from: number;
  up(data: Record<string, unknown>): Record<string, unknown>;
}

export type UpcasterChains = Readonly<Record<string, readonly Upcaster[]>>;

/** The first schema version every event type started at. */
export const FIRST_SCHEMA_VERSION = 1;

/**
 * The product's upcasters, per event type. MessageFailed and MessageNotSent: `cause` is
 * filled in from the recorded text (version 2 events always carry it where it can be told).
 */
export const UPCASTERS: UpcasterChains = { ...messageFailureUpcasters };

/** The version new events of this type are written with: one past the last upcaster's. */
export function schemaVersionOf(type: string, chains: UpcasterChains = UPCASTERS): number {
  const chain = chains[type] ?? [];
  return chain.reduce((version, upcaster) => Math.max(version, upcaster.from + 1), FIRST_SCHEMA_VERSION);
}

/**
 * The data of an event recorded at `version`, as the current version of its type. An event
 * without a version (older than versioning) counts as the first. A version newer than this
 * code knows (written by a newer release during a rolling update) is an error: reading it
 * as the old shape could silently drop what the newer release recorded.
 */
export function upcastData(type: string, version: number | undefined, data: unknown, chains: UpcasterChains = UPCASTERS): unknown {
  const current = schemaVersionOf(type, chains);
  let at = typeof version === 'number' && Number.isInteger(version) ? version : FIRST_SCHEMA_VERSION;
  if (at > current) throw new Error(`${type} event of schema version ${at}: this release reads up to version ${current}`);
  if (at === current) return data;
  let upcasted = data as Record<string, unknown>;
  for (const upcaster of [...(chains[type] ?? [])].sort((a, b) => a.from - b.from)) {
    if (upcaster.from !== at) continue;
    upcasted = upcaster.up(upcasted);
    at = upcaster.from + 1;
  }
  if (at !== current) throw new Error(`${type} event of schema version ${version}: no upcaster from version ${at}`);
  return upcasted;
}
