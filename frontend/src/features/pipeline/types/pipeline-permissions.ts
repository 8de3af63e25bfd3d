import type { Permissions } from '@crm/projections/identity';

/** What the signed-in user may do here; the server checks it again on every call. */
export type PipelinePermissions = Pick<Permissions, 'canWrite' | 'canDelete'>;
