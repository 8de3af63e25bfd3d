import { paths } from '@/config/paths';
import { RequireFeature } from '@/features/identity/components/require-feature';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canWrite } from '@/features/identity/utils/user-access';
import { ServiceListScreen } from '@/features/service-requests/components/service-list-screen';
import { useInstanceLinks } from '@/lib/use-instance-links';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/service-list: the service list (View opens /edit-service/{id}). */
export function Component() {
  usePageTitle('Service Requests');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const links = useInstanceLinks(instance);
  return (
    <RequireFeature feature="serviceRequests">
      <ServiceListScreen
        key={instance}
        instance={instance}
        canWrite={canWrite(user)}
        paths={{ form: links.serviceForm, detail: paths.editService }}
      />
    </RequireFeature>
  );
}
