import { formatQuote } from '../pipeline/index.ts';
import { formatMoney, parseMoney, PAYMENT_METHOD_LABELS, type PaymentMethod } from '../repair-orders/index.ts';
import { isCalendarDay } from '../shared/calendar-days.ts';
import { formatDate, formatDateTime, formatDuration, formatMileage } from '../shared/format.ts';
import { displayPhone } from '../shared/phone.ts';
import { FEATURE_KEYS, FEATURE_LABELS } from '../platform/index.ts';

/**
 * A change in words, one way for every screen that shows one: the audit log, Recent
 * Activity and each record's history. Browser-safe.
 */

/** Shown for a value that was (or became) empty. */
export const EMPTY_VALUE = '(empty)';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** Repair-order changes that are amounts of money, kept as decimal strings ('128.16'): shown in dollars. */
const MONEY_FIELDS = new Set(['payment', 'refund', 'invoice total']);
/** A job's mileage in and out and a vehicle's recorded reading: whole miles, grouped. */
const MILEAGE_FIELDS = new Set(['mileageIn', 'mileageOut', 'mileage']);
const MONEY_LINE_FIELD = /: (unitPrice|unitCost|amount|rate)$/;

function moneyWords(text: string): string | null {
  const cents = parseMoney(text, { negative: true });
  return cents === null ? null : formatMoney(cents);
}

/** An instance's feature flags as the features that are on, by name ('Pipeline, Customers'); 'None' when all are off. */
function featuresInWords(features: Record<string, unknown>): string {
  return (
    FEATURE_KEYS.filter((key) => features[key] === true)
      .map((key) => FEATURE_LABELS[key])
      .join(', ') || 'None'
  );
}

/**
 * A field's old or new value in words: empty, yes/no, an instance's features by name, phones grouped (a masked one stays
 * masked), quotes, payments, estimate totals and line prices in dollars, payment methods in words, durations in hours and minutes, mileage grouped ('120,000'), times in the shop's zone, calendar days ('2026-12-04') as dates,
 * a linked customer by name (`customerNames`, by id; null: one since deleted), a linked vehicle in words (never its id).
 */
export function formatChangeValue(field: string, value: unknown, customerNames: ReadonlyMap<string, string | null> = new Map()): string {
  if (value === null || value === undefined || value === '') return EMPTY_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field === 'features' && typeof value === 'object') return featuresInWords(value as Record<string, unknown>);
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  switch (field) {
    case 'phone':
    case 'contactPhone':
      return displayPhone(text);
    case 'quote':
      return formatQuote(typeof value === 'number' ? value : text);
    case 'duration':
      return formatDuration(Number(text)) || text;
    // A payment's or refund's method as the payment form names it ('card' → 'Card').
    case 'method':
      return PAYMENT_METHOD_LABELS[text as PaymentMethod] ?? text;
    // An estimate sent is recorded as its version and total ('version 1, 462.89'): the total in dollars.
    case 'estimate': {
      const sent = /^(version \d+), (-?\d[\d.]*)$/.exec(text);
      return sent ? `${sent[1]}, ${moneyWords(sent[2]!) ?? sent[2]}` : text;
    }
    // A record's id says nothing to a person; the job's Vehicle field beside it names the vehicle.
    case 'vehicleId':
      return 'Linked vehicle';
    case 'customerId': {
      const name = customerNames.get(text);
      if (name === undefined) return 'Linked customer';
      return name === null ? 'A customer since deleted' : name || 'A customer without a name';
    }
    default:
      if (MILEAGE_FIELDS.has(field) && /^\d+$/.test(text)) return formatMileage(Number(text));
      if (MONEY_FIELDS.has(field) || MONEY_LINE_FIELD.test(field)) return moneyWords(text) ?? text;
      if (isCalendarDay(text)) return formatDate(text);
      return ISO_TIME.test(text) ? formatDateTime(text) : text;
  }
}

const ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  'stage-changed': 'Stage changed',
  rescheduled: 'Rescheduled',
  canceled: 'Canceled',
  reopened: 'Reopened',
  deleted: 'Deleted',
  unshowable: 'A change that could not be shown',
};

/** A history row's action: 'stage-changed' → 'Stage changed'; one this screen does not know reads as it came, capitalised. */
export function historyActionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action.charAt(0).toUpperCase() + action.slice(1).replace(/-/g, ' ');
}
