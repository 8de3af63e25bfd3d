import { z } from 'zod';
import type { Permissions, Role } from '../identity/index.ts';

/**
 * Undo from history and restore of deleted records: the API's schemas and the one rule of
 * who may revert a change (the server decides by it, the screens show what it allows).
 * Browser-safe.
 */

/** A user who may write reverts their own changes for this long; an admin any change, any time. */
export const REVERT_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface Reverter {
  userId: string;
  role: Role;
  permissions: Permissions;
}

/** Whether this user may revert a change made by `actorId` at `recordedAt` (an admin always; a writer their own within 24 h). */
export function mayRevert(user: Reverter, change: { actorId: string | null; recordedAt: Date }, now: Date): boolean {
  if (user.role === 'admin') return true;
  if (!user.permissions.canWrite || change.actorId !== user.userId) return false;
  return now.getTime() - change.recordedAt.getTime() <= REVERT_WINDOW_MS;
}

/**
 * What a history row says about undoing it: whether the reader may revert it now and, when
 * they could revert such a change but this one would be refused (a later change of the same
 * fields, a line frozen by an invoice...), the refusal's words.
 */
export interface RevertOffer {
  canRevert: boolean;
  revertRefused?: string;
}

export const RECORD_MESSAGES = {
  notRevertible: 'Only a change of fields can be reverted (not a creation, deletion or restore)',
  notYours: 'You can revert only your own changes of the last 24 hours',
  nothingToRevert: 'The fields already have the values this change replaced',
  changeNotFound: 'Change not found',
  notDeleted: 'This record is not deleted',
  customerStillDeleted: "This job's customer is deleted: restore the customer first",
} as const;

/** Refusal of a revert: a later change set a field again. */
export function laterChangeMessage(fields: readonly string[], by: string, at: string): string {
  return `Cannot revert: ${fields.join(', ')} changed again later (by ${by} at ${at}). Revert that change first.`;
}

export const DELETED_KINDS = ['job', 'customer'] as const;
export type DeletedKind = (typeof DELETED_KINDS)[number];

export const deletedRecordSchema = z.object({
  kind: z.enum(DELETED_KINDS),
  /** The job's or customer's id (restore it with `POST …/deleted/{kind}/{id}/restore`). */
  id: z.string(),
  /** Job number, or the customer's number as text. */
  number: z.string(),
  name: z.string(),
  deletedAt: z.string(),
  deletedBy: z.string(),
  /** Set when a job went with its customer: that customer's id. */
  withCustomerId: z.string().nullable(),
});
export type DeletedRecord = z.infer<typeof deletedRecordSchema>;

export const deletedListSchema = z.object({ items: z.array(deletedRecordSchema) });
export type DeletedList = z.infer<typeof deletedListSchema>;

/** At most this many, newest first. */
export const DELETED_LIST_MAX = 500;

export const deletedListQuery = z.object({
  kind: z.enum(DELETED_KINDS, { error: 'kind must be job or customer' }).optional(),
});

export const restoredSchema = z.object({
  restored: z.literal(true),
  kind: z.enum(DELETED_KINDS),
  id: z.string(),
  /** For a customer: how many of the jobs its deletion removed came back with it. */
  jobsRestored: z.number().int().nonnegative(),
  /** For a customer: how many of the vehicle records its deletion removed came back with it. */
  vehiclesRestored: z.number().int().nonnegative(),
  /**
   * For a customer: its vehicles whose VIN another vehicle of the shop took while it was
   * deleted. Each came back without the VIN (`vehicleRestored`), or, named by the VIN alone,
   * stayed deleted; `message` says which, and where the VIN is now.
   */
  vinsNotRestored: z.array(z.object({ vehicleId: z.string(), vin: z.string(), vehicleRestored: z.boolean(), message: z.string() })),
});
export type RestoredView = z.infer<typeof restoredSchema>;
