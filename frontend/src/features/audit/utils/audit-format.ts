import { JOB_FIELD_LABELS } from '@crm/projections/pipeline';

export const ENTITY_TYPE_LABELS: Record<string, string> = {
  job: 'Job',
  customer: 'Customer',
  user: 'User',
  instance: 'CRM instance',
  serviceRequest: 'Service request',
};

/** An entity type in words; one without a label still reads as words ('repairOrder' → 'Repair order'). */
export function entityTypeLabel(entityType: string): string {
  return ENTITY_TYPE_LABELS[entityType] ?? camelCaseToWords(entityType);
}

function camelCaseToWords(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
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
  return camelCaseToWords(field);
}
