import type { StoredDomainEvent } from '@crm/projections/events';
import { laterChangeMessage, mayRevert, RECORD_MESSAGES, type Reverter, type RevertOffer } from '@crm/projections/records';
import { AppError, ConflictError, ForbiddenError } from './errors.ts';

/**
 * The rules every revert from history follows, whatever the record: who may revert a change
 * (an admin any, a writer their own of the last 24 hours), and that a later change of the
 * same fields refuses it (undoing it would silently drop that later change).
 */

const at = (event: StoredDomainEvent) => `${event.recordedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** Refuses what the reader may not revert: not theirs (and not an admin), or too old. */
export function assertMayRevert(reader: Reverter, event: StoredDomainEvent, now: Date): void {
  if (!mayRevert(reader, { actorId: event.metadata.actor.id, recordedAt: event.recordedAt }, now)) {
    throw new ForbiddenError(RECORD_MESSAGES.notYours);
  }
}

/**
 * A later event that set one of `fields` again refuses the revert, naming it; a later change
 * that a later revert undid does not count (undo the newest first, then the one before).
 */
export function assertNoLaterChange<E extends StoredDomainEvent>(
  later: E[],
  fields: string[],
  fieldsOf: (event: E) => string[],
  label: (field: string) => string,
): void {
  // A later change undone by a later revert cancels out with it (an undo stack): neither stands in the way.
  const revertOf = (event: E) => (event.data as { revertOf?: string }).revertOf;
  const laterIds = new Set(later.map((event) => event.id));
  const undone = new Set(later.map(revertOf).filter((id): id is string => id !== undefined && laterIds.has(id)));
  for (const event of later) {
    if (undone.has(event.id) || undone.has(revertOf(event) ?? '')) continue;
    const overlap = fieldsOf(event).filter((field) => fields.includes(field));
    if (overlap.length > 0) throw new ConflictError(laterChangeMessage(overlap.map(label), event.metadata.actor.displayName, at(event)));
  }
}

/** A history row that is no change of fields (a creation, deletion, restore, estimate, invoice): nothing to revert. */
export class NotRevertibleError extends ConflictError {}

/**
 * A history row's offer to revert, by the same check the revert command runs: offered when
 * it passes; when it fails for what the reader could otherwise revert (a later change, a
 * line frozen by an invoice...), the refusal's words go with the row. What is no change of
 * fields, or not the reader's to revert, says nothing.
 */
export function revertOffer(check: () => void): RevertOffer {
  try {
    check();
    return { canRevert: true };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error instanceof ConflictError && !(error instanceof NotRevertibleError)) return { canRevert: false, revertRefused: error.message };
    return { canRevert: false };
  }
}
