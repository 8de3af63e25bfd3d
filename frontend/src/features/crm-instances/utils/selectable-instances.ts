import { type CrmInstanceView, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/domain';

/** The instances offered on the selection page: all but the provider's reserved one. */
export function selectableInstances(instances: readonly CrmInstanceView[]): CrmInstanceView[] {
  return instances.filter((instance) => instance.subdomain.toLowerCase() !== RESERVED_INSTANCE_SUBDOMAIN);
}
