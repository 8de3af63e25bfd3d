import { parkedChangesSchema } from '@crm/projections/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { apiFetch } from '@/lib/api-client';

/**
 * A notice on a record whose change was accepted but could not be shown (the projector
 * parked its event): what the screen shows may be missing that change. Renders nothing
 * while the record has none, or when the check itself fails (the record still shows).
 */
export function ParkedChangesNotice({ instance, recordId }: { instance: string; recordId: string }) {
  const { data } = useQuery({
    queryKey: ['parked-changes', instance, recordId],
    queryFn: async ({ signal }) =>
      parkedChangesSchema.parse(
        await apiFetch(`/api/${encodeURIComponent(instance)}/parked-changes?${new URLSearchParams({ record: recordId })}`, { signal }),
      ),
  });
  return (
    <Alert variant="destructive" data-testid="parked-changes-notice">
      {data && data.count > 0
        ? `${data.count === 1 ? 'A change' : `${data.count} changes`} to this record could not be shown: what you see may be missing ${data.count === 1 ? 'it' : 'them'}. The shop's admins see ${data.count === 1 ? 'it' : 'them'} under Parked events on the Admin Dashboard.`
        : null}
    </Alert>
  );
}
