import { JOB_FIELD_LABELS } from '@crm/projections/pipeline';
import { INSTANCE_FIELD_LABELS } from '@crm/projections/platform';
import { changeFieldLabel } from '@/lib/change-field-label';

export const ENTITY_TYPE_LABELS: Record<string, string> = {
  job: 'Job',
  customer: 'Customer',
  user: 'User',
  instance: 'CRM instance',
  serviceRequest: 'Service request',
};

/** An entity type in words; one without a label still reads as words ('repairOrder' → 'Repair order'). */
export function entityTypeLabel(entityType: string): string {
  return changeFieldLabel(entityType, ENTITY_TYPE_LABELS);
}

const FIELD_LABELS: Record<string, string> = {
  ...INSTANCE_FIELD_LABELS,
  ...JOB_FIELD_LABELS,
  isLocked: 'Locked',
  canRead: 'Can read',
  canWrite: 'Can write',
  canDelete: 'Can delete',
  canManageUsers: 'Can manage users',
  signInLockedUntil: 'Sign-in blocked until',
};

/** 'makeModel' → 'Vehicle'; an unknown camelCase name → 'Camel case'; a line's field keeps the line's description as typed. */
export function auditFieldLabel(field: string): string {
  return changeFieldLabel(field, FIELD_LABELS);
}
