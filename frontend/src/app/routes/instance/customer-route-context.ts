import { useLocation } from 'react-router-dom';
import { instanceFamilyOf, instanceLinks } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canDelete, canWrite } from '@/features/identity/utils/user-access';
import { customerPaths, type CustomerPaths, type CustomerPermissions } from '@/features/customers/utils/customer-paths';

export interface CustomerRouteContext {
  /** The signed-in user's instance (RequireUser has checked it is the one in the path). */
  instance: string;
  paths: CustomerPaths;
  pipelinePath: string;
  permissions: CustomerPermissions;
}

/** What the customer screens need from the session and the address (behind RequireUser). */
export function useCustomerRouteContext(): CustomerRouteContext {
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const family = instanceFamilyOf(pathname);
  const instance = user.instance.subdomain;
  return {
    instance,
    paths: customerPaths(instance, family),
    pipelinePath: instanceLinks(instance, family).pipeline,
    permissions: { canWrite: canWrite(user), canDelete: canDelete(user), canMerge: user.role === 'admin' },
  };
}
