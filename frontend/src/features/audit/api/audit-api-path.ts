/** The audit log of an instance (the session's; another instance in the path is a 404). */
export function auditApiPath(instance: string, format: 'json' | 'csv' = 'json'): string {
  return `/api/${encodeURIComponent(instance)}/admin/audit${format === 'csv' ? '.csv' : ''}`;
}

export const auditQueryKey = (instance: string) => ['audit', instance] as const;
