import { z } from 'zod';
import { FILLED_TEXT_PATTERN, isBlankText } from '../shared/blank-text.ts';
import { emailDocument, isEmailAddress } from '../shared/email.ts';
import { phoneInput } from '../shared/phone.ts';
import { queryParam, recordListParams, recordPageSchema } from '../shared/list-query.ts';
import { atLeastOneFilled, blankOr, bodyObject, isUuidInput, notAllBlanked, PHONE_FILLED_PATTERN, textInput } from '../shared/schemas.ts';
import {
  EMPTY_SERVICE_REQUEST_FIELDS,
  isBlankServiceRequest,
  isCalendarDate,
  SERVICE_REQUEST_FIELDS,
  SERVICE_REQUEST_LIMITS,
  SERVICE_REQUEST_MESSAGES,
  SERVICE_REQUEST_SOURCES,
  SERVICE_REQUEST_STATUSES,
  SERVICE_TYPES,
  type ServiceRequestFields,
} from './fields.ts';

/**
 * The service requests' API contract: what their routes take and answer with. The server
 * validates with these, the screens parse its answers with them, the OpenAPI document is
 * made from them. Browser-safe: zod only.
 */

// ---- requests -------------------------------------------------------------------------

export const SERVICE_REQUEST_PAGE_SIZE = 50;
export const SERVICE_REQUEST_PAGE_SIZE_MAX = 200;
export const SERVICE_REQUEST_SEARCH_MAX = 200;
/** The public page's honeypot: a field people never see (so never fill) and form-filling bots do. */
export const HONEYPOT_FIELD = 'website';

const contactEmail = textInput('Contact email', SERVICE_REQUEST_LIMITS.contactEmail)
  .refine((value) => value === '' || isEmailAddress(value), SERVICE_REQUEST_MESSAGES.emailInvalid)
  .meta(blankOr(emailDocument(SERVICE_REQUEST_LIMITS.contactEmail)));

/** One of the choices, matched without case; '' (or null) is "none chosen". */
const serviceType = textInput('Service type', 100)
  .transform((value, ctx) => {
    if (value === '') return '';
    const choice = SERVICE_TYPES.find((type) => type.toLowerCase() === value.toLowerCase());
    if (!choice) {
      ctx.addIssue({ code: 'custom', message: SERVICE_REQUEST_MESSAGES.serviceTypeInvalid });
      return z.NEVER;
    }
    return choice;
  })
  .meta(blankOr({ enum: [...SERVICE_TYPES] }));

/** A calendar date; an ISO time (what a datetime picker or an older client may send) keeps its date part. */
const scheduledDate = textInput('Scheduled date', 40)
  .transform((value, ctx) => {
    if (value === '') return '';
    const date = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(value) ? value.slice(0, 10) : value;
    if (!isCalendarDate(date)) {
      ctx.addIssue({ code: 'custom', message: SERVICE_REQUEST_MESSAGES.scheduledDateInvalid });
      return z.NEVER;
    }
    return date;
  })
  .meta(blankOr({ type: 'string', format: 'date' }));

const serviceRequestShape = {
  customerName: textInput('Customer name', SERVICE_REQUEST_LIMITS.customerName).optional(),
  contactEmail: contactEmail.optional(),
  contactPhone: phoneInput('Contact phone must be text').optional(),
  vehicleType: textInput('Vehicle type', SERVICE_REQUEST_LIMITS.vehicleType).optional(),
  serviceType: serviceType.optional(),
  scheduledDate: scheduledDate.optional(),
  additionalNotes: textInput('Additional notes', SERVICE_REQUEST_LIMITS.additionalNotes).optional(),
};

/** The read-only fields a request answers with: a client may send the request back whole. */
export const SERVICE_REQUEST_ECHOED_FIELDS = [
  'id',
  'number',
  'status',
  'source',
  'jobId',
  'jobNumber',
  'createdAt',
  'createdBy',
  'lastModifiedAt',
  'lastModifiedBy',
  'revision',
] as const;

/**
 * A change to a request: a field left out stays as it is; null or '' clears it. The
 * request's read-only fields (id, createdAt, … as a client sends the record back) are
 * ignored; any other field (`name` for `customerName`) is a 400 naming it.
 */
export const serviceRequestChangesInput = bodyObject(serviceRequestShape, SERVICE_REQUEST_ECHOED_FIELDS).meta(
  notAllBlanked(SERVICE_REQUEST_FIELDS, { contactPhone: PHONE_FILLED_PATTERN }),
);
export type ServiceRequestChanges = Partial<ServiceRequestFields>;
export type ServiceRequestChangesInput = z.input<typeof serviceRequestChangesInput>;

const filled = (value: z.output<typeof serviceRequestChangesInput>): ServiceRequestFields => {
  const fields = { ...EMPTY_SERVICE_REQUEST_FIELDS };
  for (const field of SERVICE_REQUEST_FIELDS) fields[field] = value[field] ?? '';
  return fields;
};

/** A new request: every field optional, but not all of them empty. */
export const serviceRequestInput = serviceRequestChangesInput
  .transform(filled)
  .superRefine((fields, ctx) => {
    if (isBlankServiceRequest(fields))
      ctx.addIssue({ code: 'custom', message: SERVICE_REQUEST_MESSAGES.atLeastOne, path: ['customerName'] });
  })
  .meta(atLeastOneFilled(SERVICE_REQUEST_FIELDS, { contactPhone: PHONE_FILLED_PATTERN }));
export type ServiceRequestInput = z.input<typeof serviceRequestInput>;

/**
 * A request from the public page: the shop needs a name and an email to answer it. The
 * honeypot rides along (any text); the server drops a request that fills it.
 */
export const publicServiceRequestInput = z
  .strictObject({ ...serviceRequestShape, [HONEYPOT_FIELD]: z.string().max(1000).optional() })
  .transform((value) => ({ fields: filled(value), honeypot: (value[HONEYPOT_FIELD] ?? '').trim() }))
  .superRefine(({ fields }, ctx) => {
    if (isBlankText(fields.customerName))
      ctx.addIssue({ code: 'custom', message: SERVICE_REQUEST_MESSAGES.nameRequired, path: ['customerName'] });
    if (!fields.contactEmail) ctx.addIssue({ code: 'custom', message: SERVICE_REQUEST_MESSAGES.emailRequired, path: ['contactEmail'] });
  })
  .meta({
    allOf: [
      {
        required: ['customerName', 'contactEmail'],
        properties: {
          customerName: { type: 'string', pattern: FILLED_TEXT_PATTERN },
          contactEmail: emailDocument(SERVICE_REQUEST_LIMITS.contactEmail),
        },
      },
    ],
  });
export type PublicServiceRequestInput = z.input<typeof publicServiceRequestInput>;

/** Which requests a list shows: by default the ones not archived. */
export const SERVICE_REQUEST_LIST_STATUSES = ['active', ...SERVICE_REQUEST_STATUSES, 'all'] as const;
export type ServiceRequestListStatus = (typeof SERVICE_REQUEST_LIST_STATUSES)[number];

const listStatusMessage = `status must be one of: ${SERVICE_REQUEST_LIST_STATUSES.join(', ')}`;

const listParams = recordListParams({
  searchMax: SERVICE_REQUEST_SEARCH_MAX,
  pageSize: SERVICE_REQUEST_PAGE_SIZE,
  pageSizeMax: SERVICE_REQUEST_PAGE_SIZE_MAX,
});

/** The list's query string: search text, status, page size and the cursor of the page before. */
export const serviceRequestListQuery = z.object({
  q: listParams.q,
  status: queryParam('status')
    .refine(
      (value): value is ServiceRequestListStatus => (SERVICE_REQUEST_LIST_STATUSES as readonly string[]).includes(value),
      listStatusMessage,
    )
    .meta({ enum: [...SERVICE_REQUEST_LIST_STATUSES] })
    .optional()
    .default('active'),
  limit: listParams.limit,
  cursor: listParams.cursor,
  /** Only the request converted to this job: the job's way back to its request. */
  jobId: queryParam('jobId')
    .refine((value) => isUuidInput(value), 'jobId must be a job id')
    .transform((value) => value.toLowerCase())
    .meta({ format: 'uuid' })
    .optional(),
});
export type ServiceRequestListQuery = z.output<typeof serviceRequestListQuery>;

// ---- responses ------------------------------------------------------------------------

export const serviceRequestViewSchema = z.object({
  id: z.string(),
  /** Per instance, shown as SR-{number}. */
  number: z.number().int().positive(),
  customerName: z.string(),
  contactEmail: z.string(),
  /** XXX-XXX-XXXX on one request; masked ('•••-•••-1234') in lists. */
  contactPhone: z.string(),
  vehicleType: z.string(),
  serviceType: z.string(),
  /** YYYY-MM-DD or ''. */
  scheduledDate: z.string(),
  additionalNotes: z.string(),
  status: z.enum(SERVICE_REQUEST_STATUSES),
  source: z.enum(SERVICE_REQUEST_SOURCES),
  /** The job it was converted to (same instance), or null. */
  jobId: z.string().nullable(),
  jobNumber: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.string(),
  lastModifiedAt: z.string(),
  lastModifiedBy: z.string(),
  /** The stream revision, also the ETag (`"3"`): send it back as If-Match to save only over this version. */
  revision: z.number().int().nonnegative(),
});
export type ServiceRequestView = z.infer<typeof serviceRequestViewSchema>;

/** `total`: how many requests match the search and status. */
export const serviceRequestPageSchema = recordPageSchema(serviceRequestViewSchema);
export type ServiceRequestPage = z.infer<typeof serviceRequestPageSchema>;

/** `unshowable`: a change whose recorded event fails its schema; listed without its values. */
export const SERVICE_REQUEST_HISTORY_ACTIONS = ['submitted', 'updated', 'converted', 'archived', 'unshowable'] as const;

export const serviceRequestHistoryEntrySchema = z.object({
  id: z.string(),
  action: z.enum(SERVICE_REQUEST_HISTORY_ACTIONS),
  userDisplayName: z.string(),
  timestamp: z.string(),
  /** Field changes; a conversion lists `job` (its number), an archive `status`. */
  changes: z.array(z.object({ field: z.string(), oldValue: z.string().nullable(), newValue: z.string().nullable() })),
});
export type ServiceRequestHistoryEntry = z.infer<typeof serviceRequestHistoryEntrySchema>;
export const serviceRequestHistorySchema = z.array(serviceRequestHistoryEntrySchema);

/** The navigation badge and the dashboard card: open requests, and public ones staff have not acted on yet. */
export const serviceRequestSummarySchema = z.object({
  open: z.number().int().nonnegative(),
  newPublic: z.number().int().nonnegative(),
});
export type ServiceRequestSummary = z.infer<typeof serviceRequestSummarySchema>;

/** The public page's state: whether the shop takes requests online, and its name to show. */
export const publicRequestPageSchema = z.object({
  enabled: z.boolean(),
  shopName: z.string(),
});
export type PublicRequestPage = z.infer<typeof publicRequestPageSchema>;

/** What a visitor gets back: a receipt, not the stored request (a stranger reads nothing of the shop's data). */
export const publicRequestReceiptSchema = z.object({ received: z.literal(true) });

/** A conversion's answer: the request (now linked to its job); `created` is false when it had been converted before. */
export const serviceRequestConversionSchema = z.object({
  serviceRequest: serviceRequestViewSchema,
  created: z.boolean(),
});
export type ServiceRequestConversion = z.infer<typeof serviceRequestConversionSchema>;
