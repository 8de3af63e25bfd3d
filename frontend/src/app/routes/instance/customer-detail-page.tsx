import { useParams } from 'react-router-dom';
import { CustomerDetailScreen } from '@/features/customers/components/customer-detail-screen';
import { CustomerVehicles } from '@/features/vehicles/components/customer-vehicles';
import { useCustomerRouteContext } from './customer-route-context';

/** /crm/{instance}/customers/{id}: details, jobs and history with time travel. */
export function Component() {
  const { id = '' } = useParams();
  const { instance, paths, pipelinePath, permissions } = useCustomerRouteContext();
  return (
    <CustomerDetailScreen
      key={id}
      instance={instance}
      id={id}
      paths={paths}
      pipelinePath={pipelinePath}
      permissions={permissions}
      vehicles={(customer) => (
        <CustomerVehicles instance={instance} customerId={id} labels={customer.vehicleList} canWrite={permissions.canWrite} />
      )}
    />
  );
}
