import { customerChangesForTimeline, customerLabel } from '../customers/index.ts';
import { EVENT_TYPES, type StoredDomainEvent } from '../events.ts';
import { PERMISSION_KEYS, type Permissions } from '../identity/index.ts';
import { storedFieldChange } from './api.ts';
import { MESSAGE_KIND_LABELS } from '../messages/index.ts';
import { describeJobEvent, isJobStreamEvent } from '../pipeline/index.ts';
import { describeRepairOrderEvent } from '../repair-orders/index.ts';
import { describeServiceRequestEvent } from '../service-requests/index.ts';
import { describeVehicleEvent } from '../vehicles/index.ts';
import { chunked, type Projection, type ProjectionContext, writeRecordset } from '../runtime/projection.ts';
import { changedFieldWords, maskPhoneChange, type ActivityDescription, type FieldChange } from '../shared/timeline.ts';

/**
 * Plain words for every event of an instance: the audit log and Recent Activity read
 * them. Returns null for events that are not part of an instance's timeline.
 */
export function describeEvent(event: StoredDomainEvent): ActivityDescription | null {
  const description = describeInWords(event);
  return description && { ...description, changes: description.changes.map(maskPhoneChange) };
}

function describeInWords(event: StoredDomainEvent): ActivityDescription | null {
  switch (event.type) {
    case 'CrmInstanceCreated':
      return {
        entityType: 'instance',
        entityId: event.data.instanceId,
        summary: `Created the CRM instance ${event.data.displayName}`,
        changes: [],
      };
    case 'CrmInstanceUpdated':
      return {
        entityType: 'instance',
        entityId: event.data.instanceId,
        summary: `Changed the settings of the CRM instance ${event.data.displayName}`,
        changes: event.data.changes,
      };
    case 'CrmInstanceDeactivated':
    case 'CrmInstanceReactivated': {
      const active = event.type === 'CrmInstanceReactivated';
      return {
        entityType: 'instance',
        entityId: event.data.instanceId,
        summary: `${active ? 'Reactivated' : 'Deactivated'} the CRM instance ${event.data.displayName}`,
        changes: [{ field: 'isActive', oldValue: !active, newValue: active }],
      };
    }
    case 'UserCreated':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Created user ${event.data.username} (${event.data.role})`,
        changes: [],
      };
    case 'UserRoleChanged':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Changed the role of ${event.data.username} from ${event.data.oldRole} to ${event.data.newRole}`,
        changes: [
          { field: 'role', oldValue: event.data.oldRole, newValue: event.data.newRole },
          ...permissionChanges(event.data.oldPermissions, event.data.permissions),
        ],
      };
    case 'UserLocked':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Locked the account of ${event.data.username}`,
        changes: [{ field: 'isLocked', oldValue: false, newValue: true }],
      };
    case 'UserUnlocked':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Unlocked the account of ${event.data.username}`,
        changes: [{ field: 'isLocked', oldValue: true, newValue: false }],
      };
    case 'UserDeleted':
      return { entityType: 'user', entityId: event.data.userId, summary: `Deleted user ${event.data.username}`, changes: [] };
    case 'UserPinChanged':
      // The hash stays out of the timeline: the fact of the change is all there is to show.
      return { entityType: 'user', entityId: event.data.userId, summary: `Changed the PIN of ${event.data.username}`, changes: [] };
    case 'UserPermissionsChanged':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Changed the permissions of ${event.data.username}`,
        changes: permissionChanges(event.data.old, event.data.new),
      };
    case 'UserSignInFailed':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Failed sign-in for ${event.data.username} (${event.data.consecutiveFailures} in a row)`,
        changes: [],
      };
    case 'UserSignInThrottled':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Sign-in for ${event.data.username} blocked until ${event.data.lockedUntil} after too many failed attempts`,
        changes: [{ field: 'signInLockedUntil', oldValue: null, newValue: event.data.lockedUntil }],
      };
    case 'UserSignInLockCleared':
      return {
        entityType: 'user',
        entityId: event.data.userId,
        summary: `Cleared the sign-in lockout of ${event.data.username}`,
        changes: [],
      };
    case 'CustomerCreated':
      return {
        entityType: 'customer',
        entityId: event.data.customerId,
        summary: `Created customer ${customerLabel(event.data)}`,
        changes: customerChangesForTimeline(event.data),
      };
    case 'CustomerUpdated':
      return {
        entityType: 'customer',
        entityId: event.data.customerId,
        summary: `Updated customer ${customerLabel(event.data)}: ${changedFieldWords(event.data.changes)}`,
        changes: customerChangesForTimeline(event.data.changes),
      };
    case 'CustomerDeleted':
      return {
        entityType: 'customer',
        entityId: event.data.customerId,
        summary: `Deleted customer ${customerLabel(event.data)}`,
        changes: [],
      };
    case 'CustomerRestored':
      return {
        entityType: 'customer',
        entityId: event.data.customerId,
        summary: `Restored deleted customer ${customerLabel(event.data)}`,
        changes: [],
      };
    case 'CustomerMerged':
    case 'CustomerMergeUndone': {
      const d = event.data;
      const undone = event.type === 'CustomerMergeUndone' ? 'Undid the merge of' : 'Merged';
      const moved = d.role === 'into' ? ` (${d.jobIds.length} jobs, ${d.vehicleIds.length} vehicles)` : '';
      return {
        entityType: 'customer',
        entityId: d.customerId,
        summary: `${undone} customer ${d.fromName || 'Unnamed'} into ${d.intoName || 'Unnamed'}${moved}`,
        changes: [],
      };
    }
    case 'JobCreated':
    case 'JobUpdated':
    case 'JobStageChanged':
    case 'JobRescheduled':
    case 'JobCanceled':
    case 'JobReopened':
    case 'JobDeleted':
    case 'JobRestored':
      return describeJobEvent(event);
    case 'ServiceRequestSubmitted':
    case 'ServiceRequestUpdated':
    case 'ServiceRequestConvertedToJob':
    case 'ServiceRequestArchived':
      return describeServiceRequestEvent(event);
    case 'LineAdded':
    case 'LineChanged':
    case 'LineRemoved':
    case 'LinesReordered':
    case 'EstimateSent':
    case 'EstimateRevoked':
    case 'EstimateApproved':
    case 'EstimateDeclined':
    case 'InvoiceIssued':
    case 'PaymentRecorded':
    case 'RefundRecorded':
    case 'ShopSettingsUpdated':
      return describeRepairOrderEvent(event);
    case 'InvoiceNumberReserved':
      return null;
    // Messaging setup and consent are the shop's decisions: they belong in its log.
    case 'MessageTemplateChanged':
      return {
        entityType: 'instance',
        entityId: event.data.instanceId,
        summary: `Changed the ${MESSAGE_KIND_LABELS[event.data.kind]} message template`,
        changes: event.data.changes,
      };
    case 'MessagingSettingsChanged':
      return {
        entityType: 'instance',
        entityId: event.data.instanceId,
        summary: 'Changed the messaging settings',
        changes: event.data.changes,
      };
    case 'CustomerConsentChanged':
      return {
        entityType: 'customer',
        entityId: event.data.customerId,
        summary: `${event.data.newValue ? 'Recorded' : 'Withdrew'} consent to ${event.data.channel === 'email' ? 'e-mail' : 'text messages'} (${event.data.source})`,
        changes: [
          {
            field: event.data.channel === 'email' ? 'emailConsent' : 'smsConsent',
            oldValue: event.data.oldValue,
            newValue: event.data.newValue,
          },
        ],
      };
    // Each message's own life shows on the Messages screen, not in the log.
    case 'MessageQueued':
    case 'MessageSendAttempted':
    case 'MessageSent':
    case 'MessageFailed':
    case 'MessageNotSent':
    case 'MessageCanceled':
    case 'MessageRetryRequested':
      return null;
    case 'VehicleCreated':
    case 'VehicleUpdated':
    case 'VehicleMoved':
    case 'VehicleMileageRecorded':
    case 'VehicleDeleted':
    case 'VehicleRestored':
      return describeVehicleEvent(event);
    // The migration's marker: the vehicles it made tell the story.
    case 'VehicleLabelsMigrated':
      return null;
    // VIN bookkeeping: the vehicle's own events tell the story.
    case 'VinReserved':
    case 'VinReleased':
      return null;
    // Job-number bookkeeping: the job's own events tell the story.
    case 'JobNumberReserved':
    case 'JobNumberReleased':
    case 'JobNumberAssigned':
      return null;
    // Successful sign-ins are routine; they show as the user's last login instead.
    case 'UserSignedIn':
    case 'SuperAdminCreated':
    case 'SuperAdminCredentialsChanged':
    case 'SuperAdminSignedIn':
    case 'SuperAdminSignInFailed':
    case 'SubdomainReserved':
    case 'UsernameReserved':
    case 'UsernameReleased':
    case 'CustomerNumberReserved':
    case 'ServiceRequestNumberReserved':
      return null;
    default:
      return assertNever(event);
  }
}

function permissionChanges(before: Permissions, after: Permissions): FieldChange[] {
  return PERMISSION_KEYS.filter((key) => before[key] !== after[key]).map((key) => ({
    field: key,
    oldValue: before[key],
    newValue: after[key],
  }));
}

function assertNever(value: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(value)}`);
}

/** activity: the instance timeline, one row per event an instance's people would want to read about. */
/** The activity row of an event; null when it is not part of an instance's timeline. */
export function activityRow(event: StoredDomainEvent) {
  const instanceId = event.metadata.instanceId;
  if (!instanceId) return null;
  const description = describeEvent(event);
  if (!description) return null;
  return {
    event_id: event.id,
    instance_id: instanceId,
    position_commit: event.position.commit.toString(),
    position_prepare: event.position.prepare.toString(),
    stream_id: event.streamId,
    event_type: event.type,
    entity_type: description.entityType,
    entity_id: description.entityId,
    actor_kind: event.metadata.actor.kind,
    actor_id: event.metadata.actor.id,
    actor_name: event.metadata.actor.displayName,
    summary: description.summary,
    // A job event's changes are its job_history row's (the same jobEventChanges, written
    // with the event): kept once, there, and read with the timeline's mask (changes-sql.ts).
    changes: isJobStreamEvent(event) ? null : description.changes.map(storedFieldChange),
    occurred_at: event.metadata.occurredAt,
  };
}

export const ACTIVITY_COLUMNS = {
  event_id: 'uuid',
  instance_id: 'uuid',
  position_commit: 'bigint',
  position_prepare: 'bigint',
  stream_id: 'text',
  event_type: 'text',
  entity_type: 'text',
  entity_id: 'text',
  actor_kind: 'text',
  actor_id: 'text',
  actor_name: 'text',
  summary: 'text',
  changes: 'jsonb',
  occurred_at: 'timestamptz',
};

/** One row per timeline event (a replayed one stays as it is), in one statement per batch. */
async function insertActivity(events: StoredDomainEvent[], ctx: ProjectionContext): Promise<void> {
  const rows = events.map(activityRow).filter((row) => row !== null);
  // Prepared: the same text every batch, and its planning cost about as much as its run
  // (one to a few rows); an EXECUTE also spares sending and scanning the long text each time.
  for (const chunk of chunked(rows, 5000))
    await writeRecordset(ctx, 'activity', ACTIVITY_COLUMNS, chunk, 'ON CONFLICT (event_id) DO NOTHING', { prepared: true });
}

export const auditProjection: Projection = {
  name: 'audit',
  // Asynchronous (it reads across records); its readers wait for the projector themselves.
  awaitedByReads: true,
  // Every event: describeEvent decides per type (exhaustively) which ones the timeline shows.
  eventTypes: EVENT_TYPES,
  async apply(event, ctx) {
    await insertActivity([event], ctx);
  },
  applyBatch: insertActivity,
};
