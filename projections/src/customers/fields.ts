import { isBlankText } from '../shared/blank-text.ts';
import { PHONE_MESSAGES } from '../shared/phone.ts';
import { vehicleLabelKey } from '../vehicles/index.ts';

/**
 * A customer's fields, their limits and messages, and the pure helpers of its lists and
 * email (the server validates with them, the screens format with them). Browser-safe.
 */

/** The fields of both customer form variants (the CRM's and Maven's), in form order. */
export const CUSTOMER_FIELDS = ['name', 'phone', 'email', 'address', 'vehicles', 'pastAppointments', 'invoices', 'notes'] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** A customer's fields as stored: phone as digits only, lists joined by ', '. */
export type CustomerFields = Record<CustomerField, string>;

export const EMPTY_CUSTOMER_FIELDS: CustomerFields = {
  name: '',
  phone: '',
  email: '',
  address: '',
  vehicles: '',
  pastAppointments: '',
  invoices: '',
  notes: '',
};

export const CUSTOMER_LIMITS = {
  name: 200,
  email: 254,
  address: 500,
  notes: 5000,
  vehicles: 2000,
  vehicle: 100,
  pastAppointments: 5000,
  pastAppointment: 500,
  invoices: 2000,
  invoice: 100,
} as const;

export const CUSTOMER_MESSAGES = {
  atLeastOne: 'At least one field must be filled out',
  phoneTooLong: PHONE_MESSAGES.tooLong,
  phoneNotDigits: PHONE_MESSAGES.notDigits,
  emailInvalid: 'Email must be valid',
  notFound: 'Customer not found',
} as const;

export interface ListOptions {
  /** Drop repeats; `sameVehicle` compares them as vehicle labels: without case and extra spaces (vehicleLabelKey). */
  dedupe?: false | 'exact' | 'sameVehicle';
}

/**
 * A comma-separated text or an array (whose items may hold commas too) → trimmed,
 * non-empty items in their first order. Stored joined by ', ', so splitting the stored
 * text gives the same items back.
 */
export function parseList(value: string | readonly string[] | null | undefined, options: ListOptions = {}): string[] {
  const raw = value == null ? [] : typeof value === 'string' ? [value] : value;
  const items = raw
    .flatMap((part) => part.split(','))
    .map((item) => item.trim())
    .filter((item) => !isBlankText(item));
  if (!options.dedupe) return items;
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = options.dedupe === 'sameVehicle' ? vehicleLabelKey(item) : item;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function joinList(items: readonly string[]): string {
  return items.join(', ');
}

/** True when no field holds anything: such a customer cannot be saved. */
export function isBlankCustomer(fields: Partial<CustomerFields>): boolean {
  return CUSTOMER_FIELDS.every((field) => isBlankText(fields[field]));
}
