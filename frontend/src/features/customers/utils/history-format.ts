import { formatChangeValue, type CustomerFieldChange, type CustomerHistoryEntry } from '@crm/projections/contract';
import { CUSTOMER_FIELD_LABELS } from '../constants/customer-texts';

export interface ChangeDescription {
  label: string;
  /** Null on a creation: there was no value before, only the new one is shown. */
  from: string | null;
  to: string;
}

/** One changed field in words: 'Phone', '555-123-4567' → '555-987-6543'; blanks read '(empty)'. */
export function describeChange(change: CustomerFieldChange, action: CustomerHistoryEntry['action']): ChangeDescription {
  return {
    label: CUSTOMER_FIELD_LABELS[change.field] ?? change.field,
    from: action === 'created' && change.oldValue === null ? null : formatChangeValue(change.field, change.oldValue),
    to: formatChangeValue(change.field, change.newValue),
  };
}

/** A history row can show the customer as it was right after it, unless it is the deletion or a change that could not be read. */
export function canTimeTravelTo(entry: CustomerHistoryEntry): boolean {
  // A merge row is read in words: a customer merged away has no version to show at that moment.
  return entry.action !== 'deleted' && entry.action !== 'merged' && entry.action !== 'merge-undone' && entry.action !== 'unshowable';
}
