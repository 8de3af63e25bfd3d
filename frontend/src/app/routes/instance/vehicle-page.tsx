import { useParams } from 'react-router-dom';
import { jobPath } from '@/config/paths';
import { VehicleScreen } from '@/features/vehicles/components/vehicle-screen';
import { useCustomerRouteContext } from './customer-route-context';

/** /crm/{instance}/vehicles/{id}: a vehicle and everything done to it. */
export function Component() {
  const { id = '' } = useParams();
  const { instance, permissions, pipelinePath } = useCustomerRouteContext();
  return (
    <VehicleScreen key={id} instance={instance} id={id} canWrite={permissions.canWrite} jobPath={(jobId) => jobPath(pipelinePath, jobId)} />
  );
}
