import type { ServiceRequestView } from '@crm/projections/service-requests';
import { Badge } from '@/components/ui/badge';

/** Open, Converted (to job #N) or Archived; a public request nobody has acted on yet also says New. */
export function ServiceRequestStatusBadge({ request, isNew = false }: { request: ServiceRequestView; isNew?: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-1">
      {request.status === 'open' ? <Badge variant="secondary">Open</Badge> : null}
      {request.status === 'converted' ? <Badge variant="success">Converted</Badge> : null}
      {request.status === 'archived' ? <Badge variant="outline">Archived</Badge> : null}
      {request.source === 'public' ? <Badge variant={isNew ? 'default' : 'outline'}>{isNew ? 'New · Online' : 'Online'}</Badge> : null}
    </span>
  );
}
