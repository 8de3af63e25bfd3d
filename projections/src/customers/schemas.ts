import { z } from 'zod';
import { phoneInput } from '../shared/phone.ts';
import {
  CUSTOMER_FIELDS,
  CUSTOMER_LIMITS,
  CUSTOMER_MESSAGES,
  EMPTY_CUSTOMER_FIELDS,
  isBlankCustomer,
  isValidEmail,
  joinList,
  parseList,
  type CustomerFields,
  type ListOptions,
} from './fields.ts';

/** The customers' input schemas and list paging. Browser-safe: zod only. */

/** Paging of the customer list and the autocomplete (server-side, DECISIONS.md §5). */
export const CUSTOMER_PAGE_SIZE = 50;
export const CUSTOMER_PAGE_SIZE_MAX = 200;
export const CUSTOMER_SUGGESTIONS = 10;
export const CUSTOMER_SEARCH_MAX = 200;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .nullable()
    .transform((value) => (value ?? '').trim())
    .pipe(z.string().max(max, `${label} must be at most ${max} characters`));

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
