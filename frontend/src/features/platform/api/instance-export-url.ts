/**
 * The instance's export: its whole history as JSONL (one event per line), what `npm run
 * export` writes. A plain link downloads it (the super admin's session cookie goes along).
 */
export function instanceExportUrl(instanceId: string): string {
  return `/api/crm-instances/${encodeURIComponent(instanceId)}/export`;
}
