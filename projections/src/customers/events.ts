import { z } from 'zod';
import { CUSTOMER_FIELDS } from './fields.ts';

const customerNumber = z.number().int().positive();

/** A customer's fields as its creation and its restoration record them. */
const customerFields = {
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  vehicles: z.string(),
  pastAppointments: z.string(),
  invoices: z.string(),
  notes: z.string(),
};

/** What both sides of a merge (and of its undo) record. */
const merge = {
  role: z.enum(['from', 'into']),
  mergeId: z.string(),
  fromId: z.string(),
  fromName: z.string(),
  intoId: z.string(),
  intoName: z.string(),
  jobIds: z.array(z.string()),
  renamedJobIds: z.array(z.string()),
  vehicleIds: z.array(z.string()),
};

/**
 * Customers (stream `customer-{id}`). Phones are digits only, lists joined by ', '.
 * Who and when live in the metadata (actor, occurredAt).
 */
export const customerEventSchemas = {
  /** Stream `customernumber-{instanceId}-{number}`: the per-instance number is taken (never reused). */
  CustomerNumberReserved: z.object({ instanceId: z.string(), number: customerNumber, customerId: z.string() }),
  CustomerCreated: z.object({ customerId: z.string(), instanceId: z.string(), number: customerNumber, ...customerFields }),
  /** Only the fields that changed, with old and new values. `name` is the name after the change. */
  CustomerUpdated: z.object({
    customerId: z.string(),
    number: customerNumber,
    name: z.string(),
    changes: z.array(z.object({ field: z.enum(CUSTOMER_FIELDS), oldValue: z.string(), newValue: z.string() })).min(1),
    /** A change that undoes an earlier one from the history: that event's id. */
    revertOf: z.string().optional(),
  }),
  /**
   * `vehicleIds`: the vehicle records deleted with it, in the same append (VehicleDeleted,
   * reason 'customer-deleted'), which its restore brings back; absent before they were.
   */
  CustomerDeleted: z.object({
    customerId: z.string(),
    number: customerNumber,
    name: z.string(),
    vehicleIds: z.array(z.string()).optional(),
  }),
  /**
   * A deleted customer back, with its history and number, as it was when deleted;
   * `createdAt`/`createdBy`: its first creation, which the restored record keeps. The jobs
   * its deletion removed come back through the pipeline's cascade reactor, its vehicle records
   * (VehicleRestored) in the same append.
   */
  CustomerRestored: z.object({
    customerId: z.string(),
    instanceId: z.string(),
    number: customerNumber,
    ...customerFields,
    createdAt: z.string(),
    createdBy: z.string(),
  }),
  /**
   * One customer merged into another, recorded on both streams (`role`: which side this
   * stream is). The `from` customer leaves the lists; its jobs (`jobIds`) and vehicles
   * (`vehicleIds`) move to `into` in the same append. `renamedJobIds`: jobs whose name was the
   * `from` customer's and became the `into` customer's. `mergeId` names the merge (its undo
   * and the VehicleMoved events carry it).
   */
  CustomerMerged: z.object({ customerId: z.string(), number: customerNumber, name: z.string(), ...merge }),
  /**
   * A merge undone, on both streams: the `from` customer is back (`restored`: its fields and
   * first creation, as the merge left them), the jobs and vehicles still on `into` move back.
   */
  CustomerMergeUndone: z.object({
    customerId: z.string(),
    number: customerNumber,
    name: z.string(),
    ...merge,
    restored: z.object({ instanceId: z.string(), ...customerFields, createdAt: z.string(), createdBy: z.string() }).optional(),
  }),
};
