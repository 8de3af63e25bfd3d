import { type CrmInstanceView, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/domain';
import { paths } from '@/config/paths';

/** The instances offered on the selection page: all but the provider's reserved one. */
export function selectableInstances(instances: readonly CrmInstanceView[]): CrmInstanceView[] {
  return instances.filter((instance) => instance.subdomain.toLowerCase() !== RESERVED_INSTANCE_SUBDOMAIN);
}

/** Where an instance card leads: its login under the canonical route family. */
export function instancePath(instance: Pick<CrmInstanceView, 'subdomain'>): string {
  return paths.instance(instance.subdomain);
}
