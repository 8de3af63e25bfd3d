import { z } from 'zod';
import { queryParam } from '../shared/list-query.ts';

/**
 * Live updates: what the Server-Sent Events stream `GET /api/{instance}/live` sends. Each
 * `change` message names the kinds of records that changed and which ones, once the read
 * models show the change (the projector's checkpoint has passed it), so a screen that reads
 * again sees it. Browser-safe: zod only.
 */

/** What a change can be about. `calendar` comes with every job change (the calendar reads jobs). */
export const LIVE_KINDS = ['jobs', 'customers', 'calendar', 'users', 'audit', 'serviceRequests', 'instance'] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];

/** A message names at most this many records; past it `truncated` says so (screens then read their whole kind again). */
export const LIVE_RECORDS_MAX = 200;

/** The SSE event names. */
export const LIVE_EVENTS = {
  /** First message of every stream: its position (the `id:`), nothing changed. */
  ready: 'ready',
  change: 'change',
  /** The stream could not tell what changed since the browser's Last-Event-ID (too long ago): read everything again. */
  reset: 'reset',
  /** The server ends the stream for good (`reason`): the browser must not reconnect by itself. */
  closed: 'closed',
} as const;

/**
 * Why a stream was ended: the session opened more streams than it may (the oldest goes), or
 * it may not have one any more (signed out, locked, the instance closed).
 */
export const LIVE_CLOSE_REASONS = ['too-many-streams', 'signed-out'] as const;
export type LiveCloseReason = (typeof LIVE_CLOSE_REASONS)[number];
export const liveClosedSchema = z.object({ reason: z.enum(LIVE_CLOSE_REASONS) });

export const liveRecordSchema = z.object({
  kind: z.enum(LIVE_KINDS),
  id: z.string(),
  /** The record's revision after the change (what its ETag carries), where the record has one. */
  revision: z.number().int().nullable(),
});
export type LiveRecord = z.infer<typeof liveRecordSchema>;

export const liveChangeSchema = z.object({
  kinds: z.array(z.enum(LIVE_KINDS)),
  records: z.array(liveRecordSchema),
  truncated: z.boolean(),
});
export type LiveChange = z.infer<typeof liveChangeSchema>;

/**
 * A stream position as an SSE id: `{commit}.{prepare}` of the event log. The browser sends
 * the last one back as `Last-Event-ID` when it reconnects (or `lastEventId` in the query,
 * when a screen opens the stream anew), and the stream goes on from there.
 */
const LIVE_ID = /^(-?\d{1,20})\.(-?\d{1,20})$/;

export function liveId(position: { commit: bigint; prepare: bigint }): string {
  return `${position.commit}.${position.prepare}`;
}

/** The position an id names, or null when it is none of ours (then the stream starts from now). */
export function parseLiveId(value: string | undefined | null): { commit: bigint; prepare: bigint } | null {
  const match = value ? LIVE_ID.exec(value.trim()) : null;
  return match ? { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) } : null;
}

export const liveQuery = z.object({
  lastEventId: queryParam('lastEventId').max(50, 'lastEventId must be at most 50 characters').optional(),
});
