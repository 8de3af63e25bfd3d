import { CustomersScreen } from '@/features/customers/components/customers-screen';
import { usePageTitle } from '@/lib/use-page-title';
import { useCustomerRouteContext } from './customer-route-context';

/** /crm/{instance}/customers and /maven/customers (/{subdomain}/customers redirects here). */
export function Component() {
  usePageTitle('Customers');
  const { instance, paths, permissions } = useCustomerRouteContext();
  return <CustomersScreen key={instance} instance={instance} paths={paths} permissions={permissions} />;
}
