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
 * Name and display name come first, with the dialog's message (spec-platform.md §5).
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

/** The full create page's form (spec-platform.md §2 "Create CRM page"). */
export interface CrmBuilderForm {
  businessName: string;
  subdomain: string;
  displayName: string;
  description: string;
  features: Features;
  adminUsername: string;
  adminDisplayName: string;
  adminPin: string;
}

export const EMPTY_CRM_BUILDER_FORM: CrmBuilderForm = {
  businessName: '',
  subdomain: '',
  displayName: '',
  description: '',
  features: { ...DEFAULT_FEATURES },
  adminUsername: '',
  adminDisplayName: '',
  adminPin: '',
};

/** The subdomain typed, or else the one derived from the business name. */
export function effectiveSubdomain(form: Pick<CrmBuilderForm, 'businessName' | 'subdomain'>): string {
  return normalizeSubdomain(form.subdomain) || normalizeSubdomain(form.businessName);
}

/**
 * Builds the payload from the create page: the name sent is the subdomain upper-cased, the
 * display name defaults to the business name. Errors are keyed by the page's own fields.
 */
export function validateCrmBuilderForm(
  form: CrmBuilderForm,
):
  | { ok: true; value: ValidCreateInstanceInput }
  | { ok: false; errors: Partial<Record<keyof CrmBuilderForm, string>>; firstField: keyof CrmBuilderForm } {
  const businessName = form.businessName.trim();
  if (!businessName) return { ok: false, errors: { businessName: BUSINESS_NAME_REQUIRED_MESSAGE }, firstField: 'businessName' };
  const subdomain = effectiveSubdomain(form);
  if (!subdomain) return { ok: false, errors: { subdomain: SUBDOMAIN_INVALID_MESSAGE }, firstField: 'subdomain' };

  const result = validateCreateInstance({
    name: subdomain.toUpperCase(),
    displayName: form.displayName.trim() || businessName,
    description: form.description,
    subdomain,
    features: form.features,
    adminUsername: form.adminUsername,
    adminDisplayName: form.adminDisplayName,
    adminPin: form.adminPin,
  });
  if (result.ok) return result;

  const fieldOf: Record<CreateInstanceField, keyof CrmBuilderForm> = {
    name: 'businessName',
    displayName: 'displayName',
    subdomain: 'subdomain',
    description: 'description',
    features: 'features',
    adminUsername: 'adminUsername',
    adminDisplayName: 'adminDisplayName',
    adminPin: 'adminPin',
  };
  const errors: Partial<Record<keyof CrmBuilderForm, string>> = {};
  for (const [field, message] of Object.entries(result.errors) as [CreateInstanceField, string][]) {
    errors[fieldOf[field]] ??= message;
  }
  return { ok: false, errors, firstField: fieldOf[result.firstField] };
}
