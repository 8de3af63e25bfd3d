import { formatQuote, JOB_FIELD_LABELS, type JobField } from '@crm/projections/pipeline';
import { formatPhone } from '@crm/projections/shared';
import { formatDateTime, formatDuration } from './date-time';

const ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  'stage-changed': 'Stage changed',
  rescheduled: 'Rescheduled',
  canceled: 'Canceled',
  reopened: 'Reopened',
  deleted: 'Deleted',
};

/** 'stage-changed' → 'Stage changed'; an action this screen does not know is shown as it came. */
export function historyActionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action.charAt(0).toUpperCase() + action.slice(1).replace(/-/g, ' ');
}

export function historyFieldLabel(field: string): string {
  return JOB_FIELD_LABELS[field as JobField] ?? field;
}

/** Shown for a value that was (or became) empty. */
export const EMPTY_VALUE = '(empty)';

/**
 * A field's old or new value in words: phones grouped, quotes in dollars, times local, a
 * linked customer by name (`customerNames`, by id; one that is gone says so).
 */
export function formatHistoryValue(
  field: string,
  value: string | number | boolean | null,
  customerNames: ReadonlyMap<string, string | null> = new Map(),
): string {
  if (value === null || value === '') return EMPTY_VALUE;
  switch (field) {
    case 'phone':
      return formatPhone(String(value)) || String(value);
    case 'quote':
      return formatQuote(value as string | number);
    case 'appointment':
      return formatDateTime(String(value));
    case 'duration':
      return formatDuration(Number(value)) || String(value);
    case 'customerId': {
      const name = customerNames.get(String(value));
      if (name === undefined) return 'Linked customer';
      return name === null ? 'A customer since deleted' : name || 'A customer without a name';
    }
    default:
      return String(value);
  }
}
