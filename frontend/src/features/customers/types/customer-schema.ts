import {
  CUSTOMER_FIELDS,
  type CustomerDeletedView,
  type CustomerHistoryEntry,
  type CustomerPage,
  type CustomerView,
} from '@crm/projections/customers';
import { z } from 'zod';

const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');

/** A customer as the API returns it (phone whole on one record, masked in lists). */
export const customerViewSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  number: z.number(),
  name: text,
  phone: text,
  email: text,
  address: text,
  vehicles: text,
  vehicleList: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
  pastAppointments: text,
  invoices: text,
  notes: text,
  createdAt: text,
  createdBy: text,
  lastModifiedAt: text,
  lastModifiedBy: text,
  /** Sent back as If-Match when saving (see lib/concurrency). */
  revision: z.number().int().nonnegative().optional(),
}) satisfies z.ZodType<CustomerView, unknown>;

export const customerPageSchema = z.object({
  items: z.array(customerViewSchema),
  nextCursor: z.string().nullable(),
  total: z.number(),
}) satisfies z.ZodType<CustomerPage, unknown>;

const historyValue = z.string().nullable();

export const customerHistorySchema = z.array(
  z.object({
    id: z.string(),
    action: z.enum(['created', 'updated', 'deleted']),
    userDisplayName: text,
    timestamp: z.string(),
    changes: z.array(z.object({ field: z.enum(CUSTOMER_FIELDS), oldValue: historyValue, newValue: historyValue })),
  }),
) satisfies z.ZodType<CustomerHistoryEntry[], unknown>;

export const customerDeletedSchema = z.object({
  deleted: z.literal(true),
  jobsDeleted: z.number(),
}) satisfies z.ZodType<CustomerDeletedView, unknown>;
