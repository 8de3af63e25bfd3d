import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { ArrowLeftIcon } from '@/components/ui/icons';
import { paths } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { DeletedRecordsScreen } from '@/features/records/components/deleted-records-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/admin/deleted: the admins' deleted customers and jobs, to restore. Behind RequireUserManager and the admin feature. */
export function Component() {
  usePageTitle('Deleted records');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  return (
    <DeletedRecordsScreen
      key={instance}
      instance={instance}
      backLink={
        <nav aria-label="Back">
          <Link to={paths.instanceAdmin(instance)} className={buttonVariants({ variant: 'ghost', size: 'sm', className: '-ml-2' })}>
            <ArrowLeftIcon />
            Admin Dashboard
          </Link>
        </nav>
      }
    />
  );
}
