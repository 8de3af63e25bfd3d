import { z } from 'zod';
import { recordListParams, recordPageSchema, searchTextQuery } from '../shared/list-query.ts';
import { emailDocument, isEmailAddress } from '../shared/email.ts';
import { phoneInput } from '../shared/phone.ts';
import { atLeastOneFilled, blankOr, bodyObject, notAllBlanked, PHONE_FILLED_PATTERN, textInput } from '../shared/schemas.ts';
import {
  CUSTOMER_FIELDS,
  CUSTOMER_LIMITS,
  CUSTOMER_MESSAGES,
  EMPTY_CUSTOMER_FIELDS,
  isBlankCustomer,
  joinList,
  parseList,
  type CustomerFields,
  type ListOptions,
} from './fields.ts';

/**
 * The customers' API contract: what their routes take (a customer as a form sends it, the
 * list's paging) and what they answer with. The server validates with these and the
 * screens parse its answers with them; the OpenAPI document is made from them.
 * Browser-safe: zod only.
 */

// ---- requests -------------------------------------------------------------------------

/** Paging of the customer list and the autocomplete (server-side). */
export const CUSTOMER_PAGE_SIZE = 50;
export const CUSTOMER_PAGE_SIZE_MAX = 200;
export const CUSTOMER_SUGGESTIONS = 10;
export const CUSTOMER_SEARCH_MAX = 200;

const phone = phoneInput('Phone number must be text');

const email = textInput('Email', CUSTOMER_LIMITS.email)
  .refine((value) => value === '' || isEmailAddress(value), CUSTOMER_MESSAGES.emailInvalid)
  .meta(blankOr(emailDocument(CUSTOMER_LIMITS.email)));

/**
 * Pieces of a list. Vehicles drop repeats whatever their case and spaces (one vehicle, one record), invoices exact repeats;
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
  name: textInput('Name', CUSTOMER_LIMITS.name),
  phone,
  email,
  address: textInput('Address', CUSTOMER_LIMITS.address),
  vehicles: list('Vehicles', 'vehicle', CUSTOMER_LIMITS.vehicles, CUSTOMER_LIMITS.vehicle, 'sameVehicle'),
  pastAppointments: list('Past appointments', 'past appointment', CUSTOMER_LIMITS.pastAppointments, CUSTOMER_LIMITS.pastAppointment, false),
  invoices: list('Invoices', 'invoice number', CUSTOMER_LIMITS.invoices, CUSTOMER_LIMITS.invoice, 'exact'),
  notes: textInput('Notes', CUSTOMER_LIMITS.notes),
};

/** The read-only fields a customer answers with: a client may send the customer back whole. */
export const CUSTOMER_ECHOED_FIELDS = [
  'id',
  'number',
  'vehicleList',
  'createdAt',
  'createdBy',
  'lastModifiedAt',
  'lastModifiedBy',
  'revision',
] as const;

/**
 * A change to a customer: a field that is left out stays as it is; null or '' clears it.
 * The customer's read-only fields (id, createdAt, … sent back by a form) are ignored; any
 * other field is a 400 naming it.
 */
export const customerChangesInput = bodyObject(
  {
    name: fieldSchemas.name.optional(),
    phone: fieldSchemas.phone.optional(),
    email: fieldSchemas.email.optional(),
    address: fieldSchemas.address.optional(),
    vehicles: fieldSchemas.vehicles.optional(),
    pastAppointments: fieldSchemas.pastAppointments.optional(),
    invoices: fieldSchemas.invoices.optional(),
    notes: fieldSchemas.notes.optional(),
  },
  CUSTOMER_ECHOED_FIELDS,
).meta(notAllBlanked(CUSTOMER_FIELDS, { phone: PHONE_FILLED_PATTERN }));
export type CustomerChanges = Partial<CustomerFields>;
export type CustomerChangesInput = z.input<typeof customerChangesInput>;

/** A new customer: every field optional, but not all of them empty. */
export const customerInput = customerChangesInput
  .transform((value): CustomerFields => {
    const fields = { ...EMPTY_CUSTOMER_FIELDS };
    for (const field of CUSTOMER_FIELDS) fields[field] = value[field] ?? '';
    return fields;
  })
  .superRefine((fields, ctx) => {
    if (isBlankCustomer(fields)) ctx.addIssue({ code: 'custom', message: CUSTOMER_MESSAGES.atLeastOne, path: ['name'] });
  })
  .meta(atLeastOneFilled(CUSTOMER_FIELDS, { phone: PHONE_FILLED_PATTERN }));
export type CustomerInput = z.input<typeof customerInput>;

/** The customer list's query string: search text, page size and the cursor of the page before. */
export const customerListQuery = z.object(
  recordListParams({ searchMax: CUSTOMER_SEARCH_MAX, pageSize: CUSTOMER_PAGE_SIZE, pageSizeMax: CUSTOMER_PAGE_SIZE_MAX }),
);

/** The autocomplete takes `query` (older clients' name for it) or `q`. */
export const customerSuggestQuery = z.object({
  query: searchTextQuery('query', CUSTOMER_SEARCH_MAX),
  q: searchTextQuery('q', CUSTOMER_SEARCH_MAX),
});

/**
 * Who might already be this person: `GET …/customers/matches?name=&phone=&email=`. Any of
 * the three may be given (at least one); a customer matches on its name without case and
 * surrounding spaces, on the same phone digits, or on its email without case. For the
 * screens that are about to make a customer (a service request's conversion, the job
 * dialog, the customer form) to offer the existing one instead.
 */
export const CUSTOMER_MATCHES_MAX = 10;
export const customerMatchesQuery = z
  .object({
    name: searchTextQuery('name', CUSTOMER_LIMITS.name),
    phone: searchTextQuery('phone', 40),
    email: searchTextQuery('email', CUSTOMER_LIMITS.email),
  })
  .superRefine((query, ctx) => {
    if (!query.name.trim() && !query.email.trim() && !query.phone.replace(/\D/g, ''))
      ctx.addIssue({ code: 'custom', message: 'Give a name, a phone or an email to match', path: ['name'] });
  });

// ---- responses ------------------------------------------------------------------------

/**
 * A customer. `phone` is whole (XXX-XXX-XXXX) on single-record answers and masked
 * ('•••-•••-1234') in lists. `vehicles` is the stored 'a, b' text, `vehicleList` its items on
 * single-record answers; in lists `vehicleList` is the customer's vehicles as a person reads
 * them: the typed ones in their order, each through its vehicle record's label where it has
 * one, then the records added on their own.
 */
export const customerViewSchema = z.object({
  id: z.string(),
  number: z.number().int().positive(),
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  vehicles: z.string(),
  vehicleList: z.array(z.string()),
  pastAppointments: z.string(),
  invoices: z.string(),
  notes: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastModifiedAt: z.string(),
  lastModifiedBy: z.string(),
  /**
   * The customer's stream revision, also its ETag (`"3"`): send it back as If-Match to save
   * only over this version. The API always gives it; a client may do without (no check).
   */
  revision: z.number().int().nonnegative().optional(),
});
export type CustomerView = z.infer<typeof customerViewSchema>;

/**
 * One customer as `GET …/customers/{id}` answers it: the record with the customer's consent
 * to e-mail and to text messages as it is now (no consent recorded: false; who changed it and
 * when: `GET …/customers/{id}/consent`). A customer read as it was at a moment (`asOf`) has
 * no consent fields: consent is kept as it is now, not as it was.
 */
export const customerRecordSchema = customerViewSchema.extend({
  emailConsent: z.boolean().optional(),
  smsConsent: z.boolean().optional(),
});
export type CustomerRecord = z.infer<typeof customerRecordSchema>;

/** `total`: how many customers match the search (all of them without one). */
export const customerPageSchema = recordPageSchema(customerViewSchema);
export type CustomerPage = z.infer<typeof customerPageSchema>;

/** The pipeline dialog's autocomplete. */
export const customerSuggestionSchema = z.object({
  id: z.string(),
  number: z.number().int().positive(),
  name: z.string(),
  /** Masked. */
  phone: z.string(),
  vehicles: z.array(z.string()),
});
export type CustomerSuggestion = z.infer<typeof customerSuggestionSchema>;

export const customerSuggestionsSchema = z.array(customerSuggestionSchema);

export const customerFieldChangeSchema = z.object({
  field: z.enum(CUSTOMER_FIELDS),
  /** Null on a creation: the field had no value before. */
  oldValue: z.string().nullable(),
  newValue: z.string().nullable(),
});
export type CustomerFieldChange = z.infer<typeof customerFieldChangeSchema>;

/** `unshowable`: a change whose recorded event fails its schema; listed without its values. */
export const CUSTOMER_HISTORY_ACTIONS = ['created', 'updated', 'deleted', 'restored', 'merged', 'merge-undone', 'unshowable'] as const;

/** A merge (or its undo) as either customer's history shows it; `role`: which side this customer was. */
export const customerMergeEntrySchema = z.object({
  role: z.enum(['from', 'into']),
  mergeId: z.string(),
  fromId: z.string(),
  fromName: z.string(),
  intoId: z.string(),
  intoName: z.string(),
  jobs: z.number().int().nonnegative(),
  vehicles: z.number().int().nonnegative(),
});

export const customerHistoryEntrySchema = z.object({
  /** The event's id. */
  id: z.string(),
  action: z.enum(CUSTOMER_HISTORY_ACTIONS),
  userDisplayName: z.string(),
  /** ISO time; `GET …/customers/{id}?asOf=` with it shows the customer as of that instant. */
  timestamp: z.string(),
  /** The customer's revision this change made; `GET …/customers/{id}?asOfRevision=` with it shows the customer right after this change. */
  revision: z.number().int(),
  changes: z.array(customerFieldChangeSchema),
  /** This change undid the change with this id (a revert from the history). */
  revertOf: z.string().nullable().optional(),
  /**
   * Whether the caller may revert this change now (`POST …/history/{id}/revert` accepts it
   * unless the customer changes in between): the revert command's own rule.
   */
  canRevert: z.boolean().optional(),
  /** Why a revert the caller could otherwise make would be refused now (a later change of the same fields). */
  revertRefused: z.string().optional(),
  /** On a merge and its undo: who was merged into whom, and how much moved. */
  merge: customerMergeEntrySchema.optional(),
});
export type CustomerHistoryEntry = z.infer<typeof customerHistoryEntrySchema>;

export const customerHistorySchema = z.array(customerHistoryEntrySchema);

export const customerDeletedSchema = z.object({ deleted: z.literal(true), jobsDeleted: z.number().int().nonnegative() });
export type CustomerDeletedView = z.infer<typeof customerDeletedSchema>;

/** A customer that may be the same person, and on what it matched. */
export const CUSTOMER_MATCH_FIELDS = ['name', 'phone', 'email'] as const;
export const customerMatchSchema = z.object({
  id: z.string(),
  number: z.number().int().positive(),
  name: z.string(),
  /** Masked, as in lists. */
  phone: z.string(),
  email: z.string(),
  vehicles: z.array(z.string()),
  matchedOn: z.array(z.enum(CUSTOMER_MATCH_FIELDS)),
});
export type CustomerMatch = z.infer<typeof customerMatchSchema>;
export const customerMatchesSchema = z.object({ items: z.array(customerMatchSchema) });
export type CustomerMatches = z.infer<typeof customerMatchesSchema>;

/** `POST …/customers/{id}/merge`: the customer this one is merged into. */
export const customerMergeInput = z.strictObject({ intoId: z.string().uuid() });

/** A merge's (or its undo's) answer: the customer that stays, and what moved. */
export const customerMergedSchema = z.object({
  mergeId: z.string(),
  fromId: z.string(),
  intoId: z.string(),
  jobsMoved: z.number().int().nonnegative(),
  vehiclesMoved: z.number().int().nonnegative(),
  /** After a merge the `into` customer; after its undo the `from` customer, back. */
  customer: customerViewSchema,
});
export type CustomerMergedView = z.infer<typeof customerMergedSchema>;
