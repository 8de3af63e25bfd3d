import { Navigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { RequireFeature } from '@/features/identity/components/require-feature';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canWrite } from '@/features/identity/utils/user-access';
import { ServiceFormScreen } from '@/features/service-requests/components/service-form-screen';
import { useInstanceLinks } from '@/lib/use-instance-links';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/service-form: the Service Request Form. Users who may not write go to the list. */
export function Component() {
  usePageTitle('Service Request Form');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const links = useInstanceLinks(instance);
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
