/**
 * A service request's fields, choices, limits and messages (the server validates with
 * them, the screens show them). Browser-safe.
 */

import { isBlankText } from '../shared/blank-text.ts';

/** In form order. */
export const SERVICE_REQUEST_FIELDS = [
  'customerName',
  'contactEmail',
  'contactPhone',
  'vehicleType',
  'serviceType',
  'scheduledDate',
  'additionalNotes',
] as const;
export type ServiceRequestField = (typeof SERVICE_REQUEST_FIELDS)[number];

/** As stored: every field text, '' when empty; scheduledDate a calendar date YYYY-MM-DD; contactPhone digits only. */
export type ServiceRequestFields = Record<ServiceRequestField, string>;

export const EMPTY_SERVICE_REQUEST_FIELDS: ServiceRequestFields = {
  customerName: '',
  contactEmail: '',
  contactPhone: '',
  vehicleType: '',
  serviceType: '',
  scheduledDate: '',
  additionalNotes: '',
};

export const SERVICE_REQUEST_FIELD_LABELS: Record<ServiceRequestField, string> = {
  customerName: 'Customer Name',
  contactEmail: 'Contact Email',
  contactPhone: 'Contact Phone',
  vehicleType: 'Vehicle Type',
  serviceType: 'Service Type',
  scheduledDate: 'Scheduled Date',
  additionalNotes: 'Additional Notes',
};

/** The Service Type choices ('' is "none chosen"). */
export const SERVICE_TYPES = ['Oil Change', 'Tire Rotation', 'Brake Service', 'Engine Repair', 'Transmission', 'Other'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/**
 * Where a request stands: open until staff convert it to a job or archive it. A converted
 * request can still be archived; an archived one is kept (history) but no longer edited.
 */
export const SERVICE_REQUEST_STATUSES = ['open', 'converted', 'archived'] as const;
export type ServiceRequestStatus = (typeof SERVICE_REQUEST_STATUSES)[number];

/** Who submitted it: staff through the form, or a shop's customer on the public request page. */
export const SERVICE_REQUEST_SOURCES = ['staff', 'public'] as const;
export type ServiceRequestSource = (typeof SERVICE_REQUEST_SOURCES)[number];

export const SERVICE_REQUEST_LIMITS = {
  customerName: 200,
  contactEmail: 254,
  vehicleType: 200,
  additionalNotes: 5000,
} as const;

export const SERVICE_REQUEST_MESSAGES = {
  atLeastOne: 'At least one field must be filled out',
  emailInvalid: 'If provided, email must be valid',
  serviceTypeInvalid: `Service type must be one of: ${SERVICE_TYPES.join(', ')}`,
  scheduledDateInvalid: 'Scheduled date must be a date (YYYY-MM-DD)',
  notFound: 'Service request not found',
  archived: 'This service request is archived and can no longer be changed',
  nameRequired: 'Please enter your name',
  emailRequired: 'Please enter your email so the shop can reply',
  publicOff: 'This shop does not take requests online',
} as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date written YYYY-MM-DD (2025-02-30 is not one). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** True when no field holds anything: such a request cannot be saved. */
export function isBlankServiceRequest(fields: Partial<ServiceRequestFields>): boolean {
  return SERVICE_REQUEST_FIELDS.every((field) => isBlankText(fields[field]));
}

/** 'SR-12 Jane Doe', or 'SR-12' without a name: how the timeline and the job's notes name a request. */
export function serviceRequestLabel(data: { number: number; customerName: string }): string {
  return data.customerName ? `SR-${data.number} ${data.customerName}` : `SR-${data.number}`;
}
