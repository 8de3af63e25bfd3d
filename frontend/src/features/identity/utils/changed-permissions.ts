import { PERMISSION_KEYS, type Permissions } from '@crm/projections/identity';

/** The flags that differ between two permission sets: only those are sent. */
export function changedPermissions(before: Permissions, after: Permissions): Partial<Permissions> {
  const changes: Partial<Permissions> = {};
  for (const key of PERMISSION_KEYS) if (before[key] !== after[key]) changes[key] = after[key];
  return changes;
}
