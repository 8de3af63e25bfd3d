import type { Permissions } from '@crm/projections/identity';

export const PERMISSION_LABELS: Record<keyof Permissions, { label: string; description: string }> = {
  canRead: { label: 'Can read', description: 'See customers, jobs, the calendar and service requests.' },
  canWrite: { label: 'Can write', description: 'Add and edit customers, jobs and appointments.' },
  canDelete: { label: 'Can delete', description: 'Delete customers and jobs.' },
  canManageUsers: { label: 'Can manage users', description: 'Add, lock and delete users that are not admins.' },
};
