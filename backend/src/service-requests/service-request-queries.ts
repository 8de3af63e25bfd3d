import type { Knex } from 'knex';
import { formatPhone, isUuid, maskPhone } from '@crm/projections/shared';
import type {
  ServiceRequestListStatus,
  ServiceRequestPage,
  ServiceRequestSource,
  ServiceRequestStatus,
  ServiceRequestSummary,
  ServiceRequestView,
} from '@crm/projections/service-requests';
import { likeContaining } from '../infra/sql.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { newestFirstPage, normalizeSearch, type NewestFirstCursor } from '../shared/list-query.ts';
import { RECORD_STAMP_COLUMNS, recordStamps, type RecordStampRow } from '../shared/record-stamps.ts';

interface ServiceRequestRow extends RecordStampRow {
  id: string;
  number: number;
  customer_name: string;
  contact_email: string;
  contact_phone: string;
  vehicle_type: string;
  service_type: string;
  scheduled_date: string;
  additional_notes: string;
  status: ServiceRequestStatus;
  source: ServiceRequestSource;
  job_id: string | null;
  job_number: string | null;
}

const COLUMNS = [
  'id',
  'number',
  'customer_name',
  'contact_email',
  'contact_phone',
  'vehicle_type',
  'service_type',
  'scheduled_date',
  'additional_notes',
  'status',
  'source',
  'job_id',
  'job_number',
  ...RECORD_STAMP_COLUMNS,
] as const;

/** One request shows its phone whole; lists mask it to the last 4 digits. */
function toView(row: ServiceRequestRow, phone: 'full' | 'masked' = 'full'): ServiceRequestView {
  return {
    id: row.id,
    number: row.number,
    customerName: row.customer_name,
    contactEmail: row.contact_email,
    contactPhone: phone === 'full' ? formatPhone(row.contact_phone) : maskPhone(row.contact_phone),
    vehicleType: row.vehicle_type,
    serviceType: row.service_type,
    scheduledDate: row.scheduled_date,
    additionalNotes: row.additional_notes,
    status: row.status,
    source: row.source,
    jobId: row.job_id,
    jobNumber: row.job_number,
    ...recordStamps(row),
  };
}

/**
 * The tenant's requests: the view filters to the transaction's instance itself (so the
 * trigram index stays usable); the explicit filter is kept so every query states its instance.
 */
const requestsOf = (db: Knex, instanceId: string) =>
  db.withSchema('rm').from('service_requests_of_instance').where('instance_id', instanceId);

/** A request of this instance (archived ones too); null for unknown ids and other instances'. */
export async function findServiceRequest(knex: Knex, instanceId: string, id: string): Promise<ServiceRequestView | null> {
  if (!isUuid(id)) return null;
  const row = (await withTenant(knex, instanceId, (db) => requestsOf(db, instanceId).where('id', id.toLowerCase()).first(COLUMNS))) as
    ServiceRequestRow | undefined;
  return row ? toView(row) : null;
}

/** The highest number in use as far as the read model knows (a hint: reservations decide). */
export async function highestServiceRequestNumber(knex: Knex, instanceId: string): Promise<number> {
  const row = (await withTenant(knex, instanceId, (db) => requestsOf(db, instanceId).max({ n: 'number' }).first())) as
    { n: number | null } | undefined;
  return row?.n ?? 0;
}

// ---- search -------------------------------------------------------------------------

/** Case-insensitive substring over name, email, vehicle type, service type and notes (the generated `search` column). */
function filtered(query: Knex.QueryBuilder, search: string, status: ServiceRequestListStatus, jobId: string | null): Knex.QueryBuilder {
  const text = normalizeSearch(search);
  if (text) query.where('search', 'like', likeContaining(text));
  if (status === 'active') query.whereNot('status', 'archived');
  else if (status !== 'all') query.where('status', status);
  if (jobId) query.where('job_id', jobId);
  return query;
}

export interface ListServiceRequestsOptions {
  search: string;
  status: ServiceRequestListStatus;
  /** Only the request converted to this job (the job's way back to its request). */
  jobId: string | null;
  limit: number;
  cursor: NewestFirstCursor | null;
}

/** Newest first, a page at a time (keyset on created_at, id), with the count of all matches. */
export async function listServiceRequests(
  knex: Knex,
  instanceId: string,
  options: ListServiceRequestsOptions,
): Promise<ServiceRequestPage> {
  return await withTenant(knex, instanceId, async (db) => {
    const page = await newestFirstPage<ServiceRequestRow>(
      db,
      () => filtered(requestsOf(db, instanceId), options.search, options.status, options.jobId),
      { columns: COLUMNS, limit: options.limit, cursor: options.cursor },
    );
    return { items: page.rows.map((row) => toView(row, 'masked')), nextCursor: page.nextCursor, total: page.total };
  });
}

/** Open requests, and public ones nobody on the staff has acted on yet. */
export async function serviceRequestSummary(knex: Knex, instanceId: string): Promise<ServiceRequestSummary> {
  const row = (await withTenant(knex, instanceId, (db) =>
    requestsOf(db, instanceId)
      .select(
        db.raw("count(*) FILTER (WHERE status = 'open') AS open"),
        db.raw("count(*) FILTER (WHERE is_new_public AND status = 'open') AS new_public"),
      )
      .first(),
  )) as { open: string | number; new_public: string | number } | undefined;
  return { open: Number(row?.open ?? 0), newPublic: Number(row?.new_public ?? 0) };
}
