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
