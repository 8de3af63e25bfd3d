import type { FeatureKey } from '@crm/projections/platform';

export const FEATURE_DESCRIPTIONS: Record<FeatureKey, string> = {
  pipeline: 'Track jobs from quote to paid.',
  customers: 'Customer records, vehicles and history.',
  calendar: 'Schedule appointments and work.',
  // Staff accounts are managed whatever this says: an instance's admins can always add staff.
  admin: 'Admin Dashboard and audit log (staff are managed either way).',
  serviceRequests: 'Service request form and list, and the optional public request page.',
};
