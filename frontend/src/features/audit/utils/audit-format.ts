import { formatQuote, JOB_FIELD_LABELS } from '@crm/projections/pipeline';
import { formatPhone } from '@crm/projections/shared';

export const ENTITY_TYPE_LABELS: Record<string, string> = {
  job: 'Job',
  customer: 'Customer',
  user: 'User',
  instance: 'CRM instance',
};

export function entityTypeLabel(entityType: string): string {
  return ENTITY_TYPE_LABELS[entityType] ?? entityType;
}

const FIELD_LABELS: Record<string, string> = {
  ...JOB_FIELD_LABELS,
  isLocked: 'Locked',
  canRead: 'Can read',
  canWrite: 'Can write',
  canDelete: 'Can delete',
  canManageUsers: 'Can manage users',
  signInLockedUntil: 'Sign-in blocked until',
};

/** 'makeModel' → 'Vehicle'; an unknown camelCase name → 'Camel case'. */
export function auditFieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known;
  const words = field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const EMPTY_AUDIT_VALUE = '(empty)';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function formatAuditTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}

/** A changed value in words: empty, yes/no, phones grouped, quotes in dollars, times local. */
export function formatAuditValue(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return EMPTY_AUDIT_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  // A masked phone ('•••-•••-1234') is shown as it is.
  if (field === 'phone') return /^[\d\s().+-]+$/.test(text) ? formatPhone(text) || text : text;
  if (field === 'duration' && /^\d+$/.test(text)) return `${text} min`;
  if (field === 'quote') return formatQuote(text);
  if (field === 'customerId') return 'Linked customer';
  if (ISO_TIME.test(text)) return formatAuditTime(text);
  return text;
}
