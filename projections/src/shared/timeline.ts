import { maskPhone } from './phone.ts';

/**
 * The shape of an instance's timeline entry, shared by the audit slice's activity projection
 * and the slices that describe their own events for it (customers/timeline.ts,
 * pipeline/timeline.ts), which need not import the audit slice for it.
 */
export interface FieldChange {
  field: string;
  oldValue: unknown;
  newValue: unknown;
}

/**
 * A change as the activity and job_history tables keep it: [field, oldValue, newValue] when it
 * has exactly those three keys, else the object as it is (a value left out stays left out). A
 * job's creation lists every field; without the three key names in every entry its list is
 * about half the bytes PostgreSQL parses, stores and hashes (such rows were about 900 bytes).
 */
export type StoredFieldChange<Change extends FieldChange = FieldChange> = [field: string, oldValue: unknown, newValue: unknown] | Change;

export function storedFieldChange<Change extends FieldChange>(change: Change): StoredFieldChange<Change> {
  const whole = change.oldValue !== undefined && change.newValue !== undefined && Object.keys(change).length === 3;
  return whole ? [change.field, change.oldValue, change.newValue] : change;
}

/** The change back as the API answers it (keys in the order PostgreSQL's jsonb gave them before). */
export function fieldChangeFromStored<Change extends FieldChange = FieldChange>(stored: StoredFieldChange<Change>): Change {
  return Array.isArray(stored) ? ({ field: stored[0], newValue: stored[2], oldValue: stored[1] } as Change) : stored;
}

export interface ActivityDescription {
  entityType: string;
  entityId: string;
  summary: string;
  changes: FieldChange[];
}

/**
 * The timeline is a list, so a phone in it shows its last 4 digits only,
 * whoever's phone it is: customers' and jobs' alike, for every reader of the timeline.
 */
export function maskPhoneChange(change: FieldChange): FieldChange {
  if (change.field !== 'phone') return change;
  const mask = (value: unknown) => (typeof value === 'string' ? maskPhone(value) : value);
  return { ...change, oldValue: mask(change.oldValue), newValue: mask(change.newValue) };
}

/**
 * The changed fields of an update as a summary lists them: 'contactEmail, scheduledDate' read
 * 'contact email, scheduled date' (a person reads the summary; field names are for the API).
 */
export function changedFieldWords(changes: readonly Pick<FieldChange, 'field'>[]): string {
  return changes.map((change) => change.field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()).join(', ');
}
