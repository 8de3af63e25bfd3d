import { Navigate, useLocation } from 'react-router-dom';
import { instanceFamilyOf, instanceLinks, paths } from '@/config/paths';
import { RequireFeature } from '@/features/identity/components/require-feature';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canWrite } from '@/features/identity/utils/user-access';
import { ServiceFormScreen } from '@/features/service-requests/components/service-form-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/service-form: the Service Request Form. Users who may not write go to the list. */
export function Component() {
  usePageTitle('Service Request Form');
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const instance = user.instance.subdomain;
  const links = instanceLinks(instance, instanceFamilyOf(pathname));
  return (
    <RequireFeature feature="serviceRequests">
      {canWrite(user) ? (
        <ServiceFormScreen
          key={instance}
          instance={instance}
          paths={{ quoteForm: links.pipeline, list: links.serviceList, detail: paths.editService }}
        />
      ) : (
        <Navigate to={links.serviceList} replace />
      )}
    </RequireFeature>
  );
}
