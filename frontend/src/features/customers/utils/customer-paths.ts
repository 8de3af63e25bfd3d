import { type InstanceFamily, instanceLinks, paths } from '@/config/paths';

/** What the signed-in user may do with customers (GET /api/user/current → permissions). */
export interface CustomerPermissions {
  canWrite: boolean;
  canDelete: boolean;
  /** Merging two customers and undoing it: admins only. */
  canMerge?: boolean;
}

export interface CustomerPaths {
  list: string;
  create: string;
  detail: (id: string) => string;
  edit: (id: string) => string;
}

/**
 * Where the customer screens of an instance are. The list follows the family the visitor
 * uses (/crm/{instance}/customers or /maven/customers); the form pages and the customer
 * page live under /crm/{instance} only (no other paths are offered).
 */
export function customerPaths(subdomain: string, family: InstanceFamily = 'crm'): CustomerPaths {
  const canonical = paths.instanceCustomers(subdomain);
  return {
    list: instanceLinks(subdomain, family).customers,
    create: paths.instanceNewCustomer(subdomain),
    detail: (id) => `${canonical}/${encodeURIComponent(id)}`,
    edit: (id) => paths.instanceEditCustomer(subdomain, id),
  };
}
