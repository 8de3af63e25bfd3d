import { z } from 'zod';
import { SERVICE_REQUEST_FIELDS, SERVICE_REQUEST_SOURCES } from './fields.ts';

const requestNumber = z.number().int().positive();

/** Every event after the submission names the request (number and name after it), so the timeline reads without a lookup. */
const label = { serviceRequestId: z.string(), number: requestNumber, customerName: z.string() };

/**
 * Service requests (stream `servicerequest-{id}`); numbers are reserved per instance in
 * `servicerequestnumber-{instanceId}-{number}`. Who and when live in the metadata (a
 * request from the public page has the system actor "Public request page").
 */
export const serviceRequestEventSchemas = {
  ServiceRequestNumberReserved: z.object({ instanceId: z.string(), number: requestNumber, serviceRequestId: z.string() }),
  ServiceRequestSubmitted: z.object({
    serviceRequestId: z.string(),
    instanceId: z.string(),
    number: requestNumber,
    source: z.enum(SERVICE_REQUEST_SOURCES),
    customerName: z.string(),
    contactEmail: z.string(),
    // Requests submitted before the phone was asked for have none.
    contactPhone: z.string().default(''),
    vehicleType: z.string(),
    serviceType: z.string(),
    scheduledDate: z.string(),
    additionalNotes: z.string(),
  }),
  /** Only the fields that changed, with old and new values. */
  ServiceRequestUpdated: z.object({
    ...label,
    changes: z.array(z.object({ field: z.enum(SERVICE_REQUEST_FIELDS), oldValue: z.string(), newValue: z.string() })).min(1),
  }),
  /** The job made from it (in the same instance); a request is converted at most once. */
  ServiceRequestConvertedToJob: z.object({ ...label, jobId: z.string(), jobNumber: z.string() }),
  ServiceRequestArchived: z.object(label),
};
