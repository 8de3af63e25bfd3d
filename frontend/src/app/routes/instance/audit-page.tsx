import { Link, useLocation } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { instanceFamilyOf, instanceLinks } from '@/config/paths';
import { AuditScreen } from '@/features/audit/components/audit-screen';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { useUserChoices } from '@/lib/api/user-choices';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/admin/audit: the admins' audit log. Behind RequireUser and RequireUserManager. */
export function Component() {
  usePageTitle('Audit Log');
  const user = useSignedInUser();
  const { pathname } = useLocation();
  const instance = user.instance.subdomain;
  // The user filter offers the instance's active users (the same list as CSR and Tech).
  const users = useUserChoices(instance);
  return (
    <AuditScreen
      key={instance}
      instance={instance}
      users={users.data ?? []}
      backLink={
        <nav aria-label="Back">
          <Link
            to={instanceLinks(instance, instanceFamilyOf(pathname)).admin}
            className={buttonVariants({ variant: 'ghost', size: 'sm', className: '-ml-2' })}
          >
            <ArrowLeftIcon />
            Admin Dashboard
          </Link>
        </nav>
      }
    />
  );
}
