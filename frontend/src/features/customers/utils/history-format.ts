import type { CustomerFieldChange, CustomerHistoryEntry } from '@crm/projections/customers';
import { CUSTOMER_FIELD_LABELS } from '../constants/customer-texts';

export const EMPTY_VALUE = '(empty)';

const ACTION_LABELS: Record<CustomerHistoryEntry['action'], string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
};

export function historyActionLabel(action: CustomerHistoryEntry['action']): string {
  return ACTION_LABELS[action] ?? action;
}

export interface ChangeDescription {
  label: string;
  /** Null on a creation: there was no value before, only the new one is shown. */
  from: string | null;
  to: string;
}

/** One changed field in words: 'Phone', '555-123-4567' → '555-987-6543'; blanks read '(empty)'. */
export function describeChange(change: CustomerFieldChange, action: CustomerHistoryEntry['action']): ChangeDescription {
  const show = (value: string | null) => (value === null || value === '' ? EMPTY_VALUE : value);
  return {
    label: CUSTOMER_FIELD_LABELS[change.field] ?? change.field,
    from: action === 'created' && change.oldValue === null ? null : show(change.oldValue),
    to: show(change.newValue),
  };
}

/** A history row can show the customer as it was right after it, unless it is the deletion. */
export function canTimeTravelTo(entry: CustomerHistoryEntry): boolean {
  return entry.action !== 'deleted';
}
