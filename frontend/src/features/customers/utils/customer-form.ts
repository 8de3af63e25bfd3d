import { formatPhoneAsTyped } from '@crm/projections/contract';
import {
  CUSTOMER_FIELDS,
  CUSTOMER_MESSAGES,
  customerChangesInput,
  type CustomerChangesInput,
  type CustomerField,
  type CustomerFields,
  customerInput,
  type CustomerView,
  parseList,
} from '@crm/projections/customers';
import { addVehicles } from './vehicle-chips';

/** What the add/edit form holds. Vehicles are chips; the text typed for the next one is a draft. */
export interface CustomerFormValues {
  name: string;
  phone: string;
  email: string;
  address: string;
  vehicles: string[];
  vehicleDraft: string;
  pastAppointments: string;
  invoices: string;
  notes: string;
}

export const EMPTY_CUSTOMER_FORM: CustomerFormValues = {
  name: '',
  phone: '',
  email: '',
  address: '',
  vehicles: [],
  vehicleDraft: '',
  pastAppointments: '',
  invoices: '',
  notes: '',
};

export type CustomerFormErrors = Partial<Record<CustomerField, string>>;

/** The form filled from a customer read with its whole phone (a single-record answer). */
export function customerToForm(customer: CustomerView): CustomerFormValues {
  return {
    name: customer.name,
    phone: formatPhoneAsTyped(customer.phone),
    email: customer.email,
    address: customer.address,
    vehicles: customer.vehicleList.length > 0 ? [...customer.vehicleList] : parseList(customer.vehicles),
    vehicleDraft: '',
    pastAppointments: customer.pastAppointments,
    invoices: customer.invoices,
    notes: customer.notes,
  };
}

/** Any edit counts; typing a change and undoing it does not. */
export function isCustomerFormDirty(initial: CustomerFormValues, current: CustomerFormValues): boolean {
  if (current.vehicleDraft.trim() !== initial.vehicleDraft.trim()) return true;
  if (current.vehicles.length !== initial.vehicles.length || current.vehicles.some((v, i) => v !== initial.vehicles[i])) return true;
  return (['name', 'phone', 'email', 'address', 'pastAppointments', 'invoices', 'notes'] as const).some(
    (field) => current[field] !== initial[field],
  );
}

/** The vehicles to save: the chips plus a vehicle typed but not yet added with Enter. */
function vehiclesOf(form: CustomerFormValues): string[] {
  return form.vehicleDraft.trim() ? addVehicles(form.vehicles, form.vehicleDraft).vehicles : form.vehicles;
}

/** The API body for the form's values, before validation. */
export function customerFormBody(form: CustomerFormValues) {
  return {
    name: form.name,
    phone: form.phone,
    email: form.email,
    address: form.address,
    vehicles: vehiclesOf(form),
    pastAppointments: form.pastAppointments,
    invoices: form.invoices,
    notes: form.notes,
  };
}

export type CustomerFormValidation =
  { ok: true; value: CustomerFields } | { ok: false; errors: CustomerFormErrors; firstField: CustomerField };

/**
 * Checks the form with the shared schema, the same rules the server applies: at least one
 * field filled ('At least one field must be filled out', shown at Name), a valid email,
 * at most 10 phone digits, lengths. The value is what the server would store.
 */
export function validateCustomerForm(form: CustomerFormValues): CustomerFormValidation {
  const parsed = customerInput.safeParse(customerFormBody(form));
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors: CustomerFormErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    const target = CUSTOMER_FIELDS.includes(field as CustomerField) ? (field as CustomerField) : 'name';
    errors[target] ??= issue.message;
  }
  const firstField = CUSTOMER_FIELDS.find((field) => errors[field]) ?? 'name';
  return { ok: false, errors, firstField };
}

/**
 * The fields an edit changed, compared the way the server stores them (trimmed, phone
 * digits, lists joined by ', '). Only these are sent: a colleague's change to another
 * field at the same time is kept.
 */
export function customerChanges(initial: CustomerFormValues, value: CustomerFields): CustomerChangesInput {
  const before = customerChangesInput.safeParse(customerFormBody(initial));
  const changes: CustomerChangesInput = {};
  for (const field of CUSTOMER_FIELDS) {
    if (!before.success || before.data[field] !== value[field]) changes[field] = value[field];
  }
  return changes;
}

/** Errors the server names that belong to one field: shown there as well as in the toast. */
export function fieldOfServerMessage(message: string): CustomerField | null {
  if (message === CUSTOMER_MESSAGES.atLeastOne) return 'name';
  if (/email/i.test(message)) return 'email';
  if (/phone/i.test(message)) return 'phone';
  if (/vehicle/i.test(message)) return 'vehicles';
  if (/appointment/i.test(message)) return 'pastAppointments';
  if (/invoice/i.test(message)) return 'invoices';
  if (/^name\b/i.test(message)) return 'name';
  if (/^address\b/i.test(message)) return 'address';
  if (/^notes\b/i.test(message)) return 'notes';
  return null;
}
