import { hasPermission, LIVE_RECORDS_MAX, type LiveChange, type LiveKind, type LiveRecord } from '@crm/projections/contract';
import type { GlobalPosition, RecordedEvent } from '@crm/projections/eventstore/port';
import type { UserPrincipal } from '../http/auth.ts';

/** What a stream's records are about, by stream category (`job-{id}`, …); other streams (reservations, numbers) are not records. */
const CATEGORY_KINDS: Record<string, Exclude<LiveKind, 'calendar' | 'audit'>> = {
  job: 'jobs',
  customer: 'customers',
  user: 'users',
  servicerequest: 'serviceRequests',
  crminstance: 'instance',
};

/** One recorded event as the streams need it. */
export interface Change {
  position: GlobalPosition;
  instanceId: string;
  kind: Exclude<LiveKind, 'calendar' | 'audit'>;
  id: string;
  revision: number;
}

export function summarize(event: RecordedEvent): Change | null {
  const dash = event.streamId.indexOf('-');
  if (dash < 0) return null;
  const kind = CATEGORY_KINDS[event.streamId.slice(0, dash)];
  if (!kind) return null;
  const id = event.streamId.slice(dash + 1);
  // The provider's changes to an instance (features, closing it) carry no instance in their
  // metadata: the instance is the stream's own.
  const instanceId = event.metadata?.instanceId ?? (kind === 'instance' ? id : null);
  if (!instanceId) return null;
  return { position: event.position, instanceId, kind, id, revision: event.revision };
}

/**
 * What one user may hear of some changes: only their instance's, records of the kinds they
 * may read (jobs, customers, calendar and service requests with canRead; accounts and the
 * audit log with canManageUsers, and their own account always), the instance itself.
 * Null when nothing is left.
 */
export function changeFor(principal: UserPrincipal, changes: readonly Change[]): LiveChange | null {
  const canRead = hasPermission(principal, 'canRead');
  const manages = hasPermission(principal, 'canManageUsers');
  const kinds = new Set<LiveKind>();
  const records = new Map<string, LiveRecord>();
  for (const change of changes) {
    if (change.instanceId !== principal.instance.id) continue;
    let visible: boolean;
    switch (change.kind) {
      case 'jobs':
      case 'customers':
      case 'serviceRequests':
        visible = canRead;
        break;
      case 'users':
        visible = manages || change.id === principal.userId;
        break;
      case 'instance':
        visible = true;
        break;
    }
    if (!visible) continue;
    kinds.add(change.kind);
    if (change.kind === 'jobs') kinds.add('calendar');
    if (manages) kinds.add('audit');
    const key = `${change.kind}:${change.id}`;
    const known = records.get(key);
    if (!known || (known.revision ?? -1) < change.revision)
      records.set(key, { kind: change.kind, id: change.id, revision: change.revision });
  }
  if (kinds.size === 0) return null;
  const all = [...records.values()];
  return { kinds: [...kinds], records: all.slice(0, LIVE_RECORDS_MAX), truncated: all.length > LIVE_RECORDS_MAX };
}
