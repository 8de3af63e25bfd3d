import { z } from 'zod';

/**
 * Customers: the input schema and the pure helpers every side shares (the server
 * validates with them, the screens format with them). Browser-safe: zod only.
 */

/** The union of both spec variants' fields (DECISIONS.md §5), in form order. */
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

export const PHONE_MAX_DIGITS = 10;
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

/** Paging of the customer list and the autocomplete (server-side, DECISIONS.md §5). */
export const CUSTOMER_PAGE_SIZE = 50;
export const CUSTOMER_PAGE_SIZE_MAX = 200;
export const CUSTOMER_SUGGESTIONS = 10;
export const CUSTOMER_SEARCH_MAX = 200;

export const CUSTOMER_MESSAGES = {
  atLeastOne: 'At least one field must be filled out',
  phoneTooLong: 'Phone number must be at most 10 digits',
  phoneNotDigits: 'Phone number must contain only digits',
  emailInvalid: 'Email must be valid',
  notFound: 'Customer not found',
} as const;

/** Digits only: what is stored and searched. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/** XXX-XXX-XXXX when there are exactly 10 digits; otherwise the digits as they are. */
export function formatPhone(value: string): string {
  const digits = phoneDigits(value);
  return digits.length === 10 ? `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}` : digits;
}

/** Lists show the last 4 digits only (DECISIONS.md §3): '•••-•••-1234'. Empty stays empty. */
export function maskPhone(value: string): string {
  const digits = phoneDigits(value);
  return digits ? `•••-•••-${digits.slice(-4)}` : '';
}

/** What a typed phone may hold besides digits: the usual separators. */
const PHONE_CHARACTERS = /^[\d\s().+-]*$/;

export type PhoneResult = { ok: true; digits: string } | { ok: false; message: string };

export function normalizePhone(value: string): PhoneResult {
  if (!PHONE_CHARACTERS.test(value)) return { ok: false, message: CUSTOMER_MESSAGES.phoneNotDigits };
  const digits = phoneDigits(value);
  if (digits.length > PHONE_MAX_DIGITS) return { ok: false, message: CUSTOMER_MESSAGES.phoneTooLong };
  return { ok: true, digits };
}

/** Does a search text look like (part of) a phone number? Then its digits are searched too. */
export function phoneSearchDigits(query: string): string {
  return PHONE_CHARACTERS.test(query) ? phoneDigits(query) : '';
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL.test(value);
}

export interface ListOptions {
  /** Drop repeats; `ignoreCase` compares them without case (vehicles). */
  dedupe?: false | 'exact' | 'ignoreCase';
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
    .filter((item) => item !== '');
  if (!options.dedupe) return items;
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = options.dedupe === 'ignoreCase' ? item.toLowerCase() : item;
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
  return CUSTOMER_FIELDS.every((field) => !fields[field]?.trim());
}

// ---- input schema -------------------------------------------------------------------

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .nullable()
    .transform((value) => (value ?? '').trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters`));

/** A typed phone (or null for none), kept as its digits: customers' and jobs' alike. */
export const phoneInput = (typeError: string) =>
  z
    .string({ error: typeError })
    .nullable()
    .transform((value, ctx) => {
      const result = normalizePhone((value ?? '').trim());
      if (!result.ok) {
        ctx.addIssue({ code: 'custom', message: result.message });
        return z.NEVER;
      }
      return result.digits;
    });

const phone = phoneInput('Phone number must be text');

const email = text('Email', CUSTOMER_LIMITS.email).refine((value) => value === '' || isValidEmail(value), CUSTOMER_MESSAGES.emailInvalid);

/**
 * Pieces of a list. Vehicles drop repeats whatever their case, invoices exact repeats;
 * past appointments keep theirs ("Vehicle, Service, Date" repeats a vehicle or a service).
 */
const list = (label: string, itemLabel: string, max: number, itemMax: number, dedupe: ListOptions['dedupe']) =>
  z
    .union([z.string(), z.array(z.string())], { error: `${label} must be text or a list of text` })
    .nullable()
    .transform((value, ctx) => {
      const items = parseList(value, { dedupe });
      if (items.some((item) => item.length > itemMax)) {
        ctx.addIssue({ code: 'custom', message: `Each ${itemLabel} must be at most ${itemMax} characters` });
        return z.NEVER;
      }
      const joined = joinList(items);
      if (joined.length > max) {
        ctx.addIssue({ code: 'custom', message: `${label} must be at most ${max} characters` });
        return z.NEVER;
      }
      return joined;
    });

const fieldSchemas = {
  name: text('Name', CUSTOMER_LIMITS.name),
  phone,
  email,
  address: text('Address', CUSTOMER_LIMITS.address),
  vehicles: list('Vehicles', 'vehicle', CUSTOMER_LIMITS.vehicles, CUSTOMER_LIMITS.vehicle, 'ignoreCase'),
  pastAppointments: list('Past appointments', 'past appointment', CUSTOMER_LIMITS.pastAppointments, CUSTOMER_LIMITS.pastAppointment, false),
  invoices: list('Invoices', 'invoice number', CUSTOMER_LIMITS.invoices, CUSTOMER_LIMITS.invoice, 'exact'),
  notes: text('Notes', CUSTOMER_LIMITS.notes),
};

/**
 * A change to a customer: a field that is left out stays as it is; null or '' clears it.
 * Unknown keys (id, createdAt, … sent back by a form) are ignored.
 */
export const customerChangesInput = z.object({
  name: fieldSchemas.name.optional(),
  phone: fieldSchemas.phone.optional(),
  email: fieldSchemas.email.optional(),
  address: fieldSchemas.address.optional(),
  vehicles: fieldSchemas.vehicles.optional(),
  pastAppointments: fieldSchemas.pastAppointments.optional(),
  invoices: fieldSchemas.invoices.optional(),
  notes: fieldSchemas.notes.optional(),
});
export type CustomerChanges = Partial<CustomerFields>;
export type CustomerChangesInput = z.input<typeof customerChangesInput>;

/** A new customer: every field optional, but not all of them empty (spec §5). */
export const customerInput = customerChangesInput
  .transform((value): CustomerFields => {
    const fields = { ...EMPTY_CUSTOMER_FIELDS };
    for (const field of CUSTOMER_FIELDS) fields[field] = value[field] ?? '';
    return fields;
  })
  .superRefine((fields, ctx) => {
    if (isBlankCustomer(fields)) ctx.addIssue({ code: 'custom', message: CUSTOMER_MESSAGES.atLeastOne, path: ['name'] });
  });
export type CustomerInput = z.input<typeof customerInput>;

// ---- what the API returns -----------------------------------------------------------

/**
 * A customer. `phone` is whole (XXX-XXX-XXXX) on single-record answers and masked
 * ('•••-•••-1234') in lists. `vehicles` is the stored 'a, b' text, `vehicleList` its items.
 */
export interface CustomerView {
  id: string;
  number: number;
  name: string;
  phone: string;
  email: string;
  address: string;
  vehicles: string;
  vehicleList: string[];
  pastAppointments: string;
  invoices: string;
  notes: string;
  createdAt: string;
  createdBy: string;
  lastModifiedAt: string;
  lastModifiedBy: string;
  /**
   * The customer's stream revision, also its ETag (`"3"`): send it back as If-Match to save
   * only over this version. The API always gives it; a client may do without (no check).
   */
  revision?: number;
}

export interface CustomerPage {
  items: CustomerView[];
  /** Opaque; pass back as `cursor` for the next page. Null on the last page. */
  nextCursor: string | null;
  /** How many customers match the search (all of them without one). */
  total: number;
}

/** The pipeline dialog's autocomplete. */
export interface CustomerSuggestion {
  id: string;
  number: number;
  name: string;
  /** Masked. */
  phone: string;
  vehicles: string[];
}

export interface CustomerFieldChange {
  field: CustomerField;
  /** Null on a creation: the field had no value before. */
  oldValue: string | null;
  newValue: string | null;
}

export interface CustomerHistoryEntry {
  /** The event's id. */
  id: string;
  action: 'created' | 'updated' | 'deleted';
  userDisplayName: string;
  /** ISO time; `GET …/customers/{id}?asOf=` with it shows the customer right after this change. */
  timestamp: string;
  changes: CustomerFieldChange[];
}

export interface CustomerDeletedView {
  deleted: true;
  jobsDeleted: number;
}

/** The stored value shown in full: phones formatted, everything else as stored. */
export function displayValue(field: CustomerField, value: string): string {
  return field === 'phone' ? formatPhone(value) : value;
}
