import { Navigate, useParams } from 'react-router-dom';
import { CustomerFormScreen } from '@/features/customers/components/customer-form-screen';
import { useCustomerRouteContext } from './customer-route-context';

/**
 * The standalone customer form: /crm/{instance}/customers/new, and with an id
 * /crm/{instance}/customers/{id}/edit. Users who may not write are sent back.
 */
export function Component() {
  const { id } = useParams();
  const { instance, paths, permissions } = useCustomerRouteContext();
  if (!permissions.canWrite) return <Navigate to={id === undefined ? paths.list : paths.detail(id)} replace />;
  return <CustomerFormScreen key={id ?? 'new'} instance={instance} id={id} paths={paths} />;
}
