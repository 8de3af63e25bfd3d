import { AuditScreen } from '@/features/audit/components/audit-screen';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { useUserChoices } from '@/lib/api/user-choices';
import { useInstanceLinks } from '@/lib/use-instance-links';
import { usePageTitle } from '@/lib/use-page-title';
import { BackLink } from '@/components/back-link';

/** /crm/{instance}/admin/audit: the admins' audit log. Behind RequireUser and RequireUserManager. */
export function Component() {
  usePageTitle('Audit Log');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const links = useInstanceLinks(instance);
  // The user filter offers the instance's active users (the same list as CSR and Tech).
  const users = useUserChoices(instance);
  return (
    <AuditScreen
      key={instance}
      instance={instance}
      users={users.data ?? []}
      backLink={<BackLink to={links.admin}>Admin Dashboard</BackLink>}
    />
  );
}
