import { paths } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { DeletedRecordsScreen } from '@/features/records/components/deleted-records-screen';
import { usePageTitle } from '@/lib/use-page-title';
import { BackLink } from '@/components/back-link';

/** /crm/{instance}/admin/deleted: the admins' deleted customers and jobs, to restore. Behind RequireUserManager and the admin feature. */
export function Component() {
  usePageTitle('Deleted records');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  return (
    <DeletedRecordsScreen
      key={instance}
      instance={instance}
      backLink={<BackLink to={paths.instanceAdmin(instance)}>Admin Dashboard</BackLink>}
    />
  );
}
