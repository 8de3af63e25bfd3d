import { type CrmInstanceView, RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';

const isReserved = (instance: CrmInstanceView) => instance.subdomain.toLowerCase() === RESERVED_INSTANCE_SUBDOMAIN;

/** The instances offered on the selection page: all but the provider's reserved one. */
export function selectableInstances(instances: readonly CrmInstanceView[]): CrmInstanceView[] {
  return instances.filter((instance) => !isReserved(instance));
}

/** The provider's own instance (`maven`), shown apart from the shops' instances; undefined when absent. */
export function reservedInstance(instances: readonly CrmInstanceView[]): CrmInstanceView | undefined {
  return instances.find(isReserved);
}
