import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { WrongExpectedVersionError, type AppendResult, type StreamAppend } from '@crm/projections/eventstore/port';
import {
  parseFeatures,
  runtimeTimeZone,
  updateInstanceInput,
  type CrmInstanceView,
  type Features,
  type InstanceHistoryEntry,
} from '@crm/projections/platform';
import { assertNever, isUuid } from '@crm/projections/shared';
import { readableEvents, unshowableEntry, type StoredDomainEvent } from '@crm/projections/events';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { destroyInstanceSessions } from '../http/session-store.ts';
import { parseInput } from '../http/validation.ts';
import { decideNewStream, executeCommand, loadAggregate, toNewEvents, type CommandContext } from '../shared/commands.ts';
import { ConflictError, NotFoundError } from '../shared/errors.ts';
import { instanceDecider, instanceStream, subdomainStream } from './instance-decider.ts';
import { reservationOf } from '../shared/reservation-decider.ts';

interface InstanceRow {
  id: string;
  name: string;
  subdomain: string;
  display_name: string;
  description: string;
  features: unknown;
  time_zone: string | null;
  public_requests: boolean;
  is_active: boolean;
  created_at: Date;
}

export function toInstanceView(row: InstanceRow): CrmInstanceView {
  return {
    id: row.id,
    name: row.name,
    subdomain: row.subdomain,
    displayName: row.display_name,
    description: row.description,
    features: parseFeatures(row.features),
    timeZone: row.time_zone ?? runtimeTimeZone(),
    publicRequests: row.public_requests,
    isActive: row.is_active,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

const instances = (knex: Knex) => knex.withSchema('rm').from('crm_instances');

export async function listInstances(knex: Knex): Promise<CrmInstanceView[]> {
  const rows = (await instances(knex).select('*').orderBy('created_at', 'asc')) as InstanceRow[];
  return rows.map(toInstanceView);
}

export async function findInstanceBySubdomain(knex: Knex, subdomain: string): Promise<CrmInstanceView | null> {
  const row = (await instances(knex).where({ subdomain: subdomain.toLowerCase() }).first()) as InstanceRow | undefined;
  return row ? toInstanceView(row) : null;
}

export async function getInstance(knex: Knex, id: string | undefined): Promise<CrmInstanceView> {
  if (!isUuid(id)) throw new NotFoundError('CRM instance not found');
  const row = (await instances(knex).where({ id }).first()) as InstanceRow | undefined;
  if (!row) throw new NotFoundError('CRM instance not found');
  return toInstanceView(row);
}

export interface NewInstance {
  name: string;
  subdomain: string;
  displayName: string;
  description: string;
  features: Features;
  /** IANA zone; the server's when left out. */
  timeZone?: string;
  firstAdmin?: FirstAdmin;
}

export interface FirstAdmin {
  username: string;
  displayName: string;
  pin: string;
}

/**
 * Records an instance's first admin in the same append as the instance. Users are the
 * identity slice's, and identity builds on platform (never the other way), so the composition
 * root hands identity's user creation in.
 */
export type FirstAdminRecorder = (
  deps: Pick<AppDeps, 'store'>,
  admin: FirstAdmin,
  ctx: CommandContext & { instanceId: string },
  alongside: StreamAppend[],
) => Promise<{ appended: AppendResult }>;

/**
 * Reserves the subdomain and records the instance with its first admin (so the instance can
 * be signed into at once), in one append.
 */
export async function recordInstance(
  deps: AppDeps,
  input: NewInstance,
  ctx: Omit<CommandContext, 'instanceId'>,
  recordFirstAdmin?: FirstAdminRecorder,
): Promise<{ instanceId: string; appended: AppendResult | null }> {
  const instanceId = randomUUID();
  const instanceCtx: CommandContext & { instanceId: string } = { ...ctx, instanceId };
  // The subdomain, the instance and its first admin in one append: all or nothing (a crash
  // or a failure never leaves a subdomain taken by no instance, or an instance without its admin).
  const subdomain = subdomainStream(input.subdomain);
  const taken = `Subdomain "${input.subdomain}" is already taken`;
  const held = await deps.store.readStream(subdomain);
  const reservedBefore = held[held.length - 1];
  if (reservationOf(held).status === 'held') throw new ConflictError(taken);
  const appends: StreamAppend[] = [
    {
      streamId: subdomain,
      events: toNewEvents([{ type: 'SubdomainReserved', data: { subdomain: input.subdomain, instanceId } }], instanceCtx),
      expectedRevision: reservedBefore ? reservedBefore.revision : 'no_stream',
    },
    decideNewStream({
      streamId: instanceStream(instanceId),
      decider: instanceDecider,
      command: {
        type: 'CreateInstance',
        instanceId,
        name: input.name,
        subdomain: input.subdomain,
        displayName: input.displayName,
        description: input.description,
        features: input.features,
        timeZone: input.timeZone ?? runtimeTimeZone(),
      },
      ctx: instanceCtx,
    }).append,
  ];
  try {
    if (input.firstAdmin) {
      if (!recordFirstAdmin) throw new Error('An instance with a first admin needs the recorder of its admin');
      const admin = await recordFirstAdmin(deps, input.firstAdmin, instanceCtx, appends);
      return { instanceId, appended: admin.appended };
    }
    const results = await deps.store.appendMany(appends);
    return { instanceId, appended: results[results.length - 1] ?? null };
  } catch (error) {
    if (error instanceof WrongExpectedVersionError && error.streamId === subdomain) throw new ConflictError(taken);
    throw error;
  }
}

/**
 * Deactivates or reactivates an instance. An inactive instance refuses sign-in and every
 * API call (the guard checks on each request); its open sessions end at once.
 */
export async function setInstanceActive(
  deps: AppDeps,
  instanceId: string,
  isActive: boolean,
  ctx: Omit<CommandContext, 'instanceId'>,
): Promise<CrmInstanceView> {
  await getInstance(deps.knex, instanceId);
  const result = await executeCommand({
    store: deps.store,
    streamId: instanceStream(instanceId),
    decider: instanceDecider,
    command: { type: 'SetInstanceActive', isActive },
    ctx: { ...ctx, instanceId },
  });
  if (!isActive) await destroyInstanceSessions(deps.knex, instanceId);
  await settle(deps, result.appended);
  return await getInstance(deps.knex, instanceId);
}

/** Records the instance and answers with its projection (read-your-writes). */
export async function createInstance(
  deps: AppDeps,
  input: NewInstance,
  ctx: Omit<CommandContext, 'instanceId'>,
  recordFirstAdmin: FirstAdminRecorder,
): Promise<CrmInstanceView> {
  const { instanceId, appended } = await recordInstance(deps, input, ctx, recordFirstAdmin);
  await settle(deps, appended);
  return await getInstance(deps.knex, instanceId);
}

/** One instance with its stream's revision (the ETag an edit sends back in If-Match). */
export async function getInstanceForEdit(deps: AppDeps, id: string | undefined): Promise<CrmInstanceView> {
  const view = await getInstance(deps.knex, id);
  const loaded = await loadAggregate(deps.store, instanceStream(view.id), instanceDecider);
  return { ...view, ...(loaded.revision === null ? {} : { revision: loaded.revision }) };
}

/**
 * Changes an instance's settings (display name, description, time zone, features, public
 * request page): one CrmInstanceUpdated with only what changed. Its users' next requests see
 * the new features and zone (the principal is read from the read model on each request).
 */
export async function updateInstance(
  deps: AppDeps,
  instanceId: string,
  input: unknown,
  ctx: Omit<CommandContext, 'instanceId'>,
  expectedRevision?: number,
): Promise<CrmInstanceView> {
  const parsed = parseInput(updateInstanceInput, input);
  await getInstance(deps.knex, instanceId);
  const changes = Object.fromEntries(Object.entries(parsed).filter(([, value]) => value !== undefined));
  const result = await executeCommand({
    store: deps.store,
    streamId: instanceStream(instanceId),
    decider: instanceDecider,
    command: { type: 'UpdateInstance', changes },
    ctx: { ...ctx, instanceId },
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
  });
  await settle(deps, result.appended);
  const view = await getInstance(deps.knex, instanceId);
  return { ...view, ...(result.revision === null ? {} : { revision: result.revision }) };
}

/** The events of an instance's own stream (what its history shows). */
const INSTANCE_EVENT_TYPES = ['CrmInstanceCreated', 'CrmInstanceUpdated', 'CrmInstanceDeactivated', 'CrmInstanceReactivated'] as const;
type StoredInstanceEvent = Extract<StoredDomainEvent, { type: (typeof INSTANCE_EVENT_TYPES)[number] }>;

/** The instance's history from its own stream (a handful of events), newest first. */
export async function getInstanceHistory(deps: AppDeps, instanceId: string | undefined): Promise<InstanceHistoryEntry[]> {
  const view = await getInstance(deps.knex, instanceId);
  const { events, unreadable } = readableEvents(await deps.store.readStream(instanceStream(view.id)));
  const revisionOf = new Map(events.map((event) => [event.id, event.revision]));
  const rows = events
    .filter((event): event is StoredInstanceEvent => (INSTANCE_EVENT_TYPES as readonly string[]).includes(event.type))
    .flatMap((event): InstanceHistoryEntry[] => {
      const base = { id: event.id, userDisplayName: event.metadata.actor.displayName, timestamp: event.recordedAt.toISOString() };
      switch (event.type) {
        case 'CrmInstanceCreated': {
          const d = event.data;
          const changes = [
            { field: 'displayName', oldValue: null, newValue: d.displayName },
            { field: 'description', oldValue: null, newValue: d.description },
            { field: 'timeZone', oldValue: null, newValue: d.timeZone ?? null },
            { field: 'features', oldValue: null, newValue: d.features },
          ].filter((change) => change.newValue);
          return [{ ...base, action: 'created', changes }];
        }
        case 'CrmInstanceUpdated':
          return [{ ...base, action: 'updated', changes: event.data.changes }];
        case 'CrmInstanceDeactivated':
          return [{ ...base, action: 'deactivated', changes: [{ field: 'isActive', oldValue: true, newValue: false }] }];
        case 'CrmInstanceReactivated':
          return [{ ...base, action: 'reactivated', changes: [{ field: 'isActive', oldValue: false, newValue: true }] }];
        default:
          return assertNever(event, 'event');
      }
    })
    .map((entry) => ({ entry, revision: revisionOf.get(entry.id) ?? 0 }));
  // A change whose event fails its schema is listed where it happened, without its values.
  for (const event of unreadable) {
    const { id, action, userDisplayName, timestamp, revision } = unshowableEntry(event);
    rows.push({ entry: { id, action, userDisplayName, timestamp, changes: [] }, revision });
  }
  return rows.sort((a, b) => b.revision - a.revision).map(({ entry }) => entry);
}
