import {
  SERVICE_REQUEST_FIELDS,
  serviceRequestInput,
  type ServiceRequestChangesInput,
  type ServiceRequestField,
  type ServiceRequestFields,
  type ServiceRequestView,
} from '@crm/projections/service-requests';
import { ApiError } from '@/lib/api-error';
import { SERVICE_REQUEST_TEXTS } from '../constants/service-request-texts';

/** The form's fields as the inputs hold them (the same as stored: all text). */
export type ServiceRequestForm = ServiceRequestFields;

export function formFromRequest(request: ServiceRequestView): ServiceRequestForm {
  const form = {} as ServiceRequestForm;
  for (const field of SERVICE_REQUEST_FIELDS) form[field] = request[field];
  return form;
}

/** The browser's own rule (the form marks these required); the server asks only for one field. */
export const REQUIRED_IN_BROWSER: readonly ServiceRequestField[] = ['customerName', 'contactEmail', 'vehicleType'];

export type FormErrors = Partial<Record<ServiceRequestField, string>>;

const REQUIRED_MESSAGES: Partial<Record<ServiceRequestField, string>> = {
  customerName: 'Customer name is required',
  contactEmail: 'Contact email is required',
  vehicleType: 'Vehicle type is required',
};

/** Field errors before sending: the required fields, then the shared schema's messages (the server checks again). */
export function validateServiceRequestForm(form: ServiceRequestForm, required: readonly ServiceRequestField[]): FormErrors {
  const errors: FormErrors = {};
  for (const field of required) if (!form[field].trim()) errors[field] = REQUIRED_MESSAGES[field] ?? 'Required';
  const result = serviceRequestInput.safeParse(form);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = issue.path[0] as ServiceRequestField | undefined;
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  return errors;
}

/** The fields that differ from the loaded request (an edit sends only those). */
export function changedFields(form: ServiceRequestForm, loaded: ServiceRequestView): ServiceRequestChangesInput {
  const changes: ServiceRequestChangesInput = {};
  for (const field of SERVICE_REQUEST_FIELDS) if (form[field] !== loaded[field]) changes[field] = form[field];
  return changes;
}

/**
 * What the form says when a submit fails: the server's message, or the status, or
 * that the network failed.
 */
export function submitErrorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.problem?.message) return `Error: ${error.message}`;
    return `Request failed with status ${error.status}`;
  }
  if (error instanceof TypeError) return SERVICE_REQUEST_TEXTS.networkError;
  return `Error: ${SERVICE_REQUEST_TEXTS.somethingWentWrong}`;
}

/** The list's load error: the server's message, `Error fetching data: {status}`, or that the network failed. */
export function loadErrorText(error: unknown): string {
  if (error instanceof ApiError) return error.problem?.message ? error.message : `Error fetching data: ${error.status}`;
  if (error instanceof TypeError) return SERVICE_REQUEST_TEXTS.networkError;
  return 'Invalid data format received';
}

/** 'SR-12'. */
export function requestNumber(request: Pick<ServiceRequestView, 'number'>): string {
  return `SR-${request.number}`;
}
