import {
  createInstanceInput,
  type CreateInstanceInput,
  DEFAULT_FEATURES,
  type Features,
  normalizeSubdomain,
} from '@crm/projections/platform';
import type { z } from 'zod';

export const NAME_REQUIRED_MESSAGE = 'Name and Display Name are required';
export const BUSINESS_NAME_REQUIRED_MESSAGE = 'Name is required';
export const SUBDOMAIN_INVALID_MESSAGE = 'Subdomain must contain only lowercase letters and numbers';

export type ValidCreateInstanceInput = z.output<typeof createInstanceInput>;
export type CreateInstanceField = Extract<keyof CreateInstanceInput, string>;
export type CreateInstanceErrors = Partial<Record<CreateInstanceField, string>>;

export type CreateInstanceValidation =
  { ok: true; value: ValidCreateInstanceInput } | { ok: false; errors: CreateInstanceErrors; firstField: CreateInstanceField };

const FIELD_ORDER: CreateInstanceField[] = [
  'name',
  'displayName',
  'subdomain',
  'description',
  'features',
  'timeZone',
  'adminUsername',
  'adminDisplayName',
  'adminPin',
];

function failure(errors: CreateInstanceErrors): CreateInstanceValidation {
  const firstField = FIELD_ORDER.find((field) => errors[field]) ?? 'name';
  return { ok: false, errors, firstField };
}

/**
 * Checks a create-instance payload with the shared schema, the same rules the server applies.
 * Name and display name come first, with the dialog's message.
 */
export function validateCreateInstance(input: CreateInstanceInput): CreateInstanceValidation {
  const errors: CreateInstanceErrors = {};
  if (!input.name?.trim()) errors.name = NAME_REQUIRED_MESSAGE;
  if (!input.displayName?.trim()) errors.displayName = NAME_REQUIRED_MESSAGE;

  const parsed = createInstanceInput.safeParse(input);
  if (parsed.success && !errors.name && !errors.displayName) return { ok: true, value: parsed.data };

  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0];
    if (typeof field === 'string' && FIELD_ORDER.includes(field as CreateInstanceField)) {
      errors[field as CreateInstanceField] ??= issue.message;
    }
  }
  return failure(errors);
}

/**
 * The create-instance form, the dialog's and the create page's alike.
 * The dialog shows `businessName` as "Name" and asks for the display name; the page
 * also takes a subdomain and the features.
 */
export interface CreateInstanceForm {
  businessName: string;
  subdomain: string;
  displayName: string;
  description: string;
  features: Features;
  /** IANA zone of the shop; blank means the server's. */
  timeZone: string;
  adminUsername: string;
  adminDisplayName: string;
  adminPin: string;
}

export type CreateInstanceFormVariant = 'dialog' | 'page';
export type CreateInstanceFormField = keyof CreateInstanceForm;
export type CreateInstanceFormErrors = Partial<Record<CreateInstanceFormField, string>>;

export const EMPTY_CREATE_INSTANCE_FORM: CreateInstanceForm = {
  businessName: '',
  subdomain: '',
  displayName: '',
  description: '',
  features: { ...DEFAULT_FEATURES },
  // The person setting a shop up is usually in its zone; they can change it on the form.
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  adminUsername: '',
  adminDisplayName: '',
  adminPin: '',
};

/** The subdomain typed, or else the one derived from the business name. */
export function effectiveSubdomain(form: Pick<CreateInstanceForm, 'businessName' | 'subdomain'>): string {
  return normalizeSubdomain(form.subdomain) || normalizeSubdomain(form.businessName);
}

/** Which form field a payload field is typed in. */
const FORM_FIELD_OF: Record<CreateInstanceField, CreateInstanceFormField> = {
  name: 'businessName',
  displayName: 'displayName',
  subdomain: 'subdomain',
  description: 'description',
  features: 'features',
  timeZone: 'timeZone',
  adminUsername: 'adminUsername',
  adminDisplayName: 'adminDisplayName',
  adminPin: 'adminPin',
};

/**
 * The form's payload, checked by validateCreateInstance (the shared schema, the server's
 * rules). The dialog sends the name as typed and needs a display name; the page sends the
 * subdomain upper-cased as the name and defaults the display name to the business name.
 * Errors are keyed by the form's fields.
 */
export function validateCreateInstanceForm(
  form: CreateInstanceForm,
  variant: CreateInstanceFormVariant,
): { ok: true; value: ValidCreateInstanceInput } | { ok: false; errors: CreateInstanceFormErrors; firstField: CreateInstanceFormField } {
  const businessName = form.businessName.trim();
  // The payload has the server's fields only: it refuses a field it does not know (businessName).
  const { businessName: _typedName, ...fields } = form;
  let input: CreateInstanceInput;
  if (variant === 'dialog') {
    input = { ...fields, name: form.businessName, subdomain: undefined, timeZone: form.timeZone.trim() || undefined };
  } else {
    if (!businessName) return { ok: false, errors: { businessName: BUSINESS_NAME_REQUIRED_MESSAGE }, firstField: 'businessName' };
    const subdomain = effectiveSubdomain(form);
    if (!subdomain) return { ok: false, errors: { subdomain: SUBDOMAIN_INVALID_MESSAGE }, firstField: 'subdomain' };
    input = {
      ...fields,
      name: subdomain.toUpperCase(),
      displayName: form.displayName.trim() || businessName,
      subdomain,
      timeZone: form.timeZone.trim() || undefined,
    };
  }
  const result = validateCreateInstance(input);
  if (result.ok) return result;
  const errors: CreateInstanceFormErrors = {};
  for (const [field, message] of Object.entries(result.errors) as [CreateInstanceField, string][]) {
    errors[FORM_FIELD_OF[field]] ??= message;
  }
  return { ok: false, errors, firstField: FORM_FIELD_OF[result.firstField] };
}
