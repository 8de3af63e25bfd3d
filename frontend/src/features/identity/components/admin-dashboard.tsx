import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { CreateUserDialog } from './create-user-dialog';
import { CustomerDataSecurity } from './customer-data-security';
import { UsersList } from './users-list';

/**
 * The Admin Dashboard: user management, the audit log link and the
 * data-security notes. Without the instance's admin feature (`auditPath` null) it is user
 * management only: the instance's user managers can always add staff.
 */
export function AdminDashboard({
  currentUserId,
  auditPath,
  deletedRecordsPath = null,
}: {
  currentUserId: string;
  auditPath: string | null;
  /** The admins' deleted customers and jobs, to restore (role admin only). */
  deletedRecordsPath?: string | null;
}) {
  const adminFeature = auditPath !== null;
  return (
    <div className="grid gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{adminFeature ? 'Admin Dashboard' : 'Users'}</h1>
          <p className="text-muted-foreground">Manage who can use this CRM and what they may do.</p>
        </div>
        {adminFeature ? (
          <div className="flex flex-wrap gap-2 self-start sm:self-auto">
            {deletedRecordsPath ? (
              <Link to={deletedRecordsPath} className={buttonVariants({ variant: 'outline' })}>
                Deleted records
              </Link>
            ) : null}
            <Link to={auditPath} className={buttonVariants({ variant: 'outline' })}>
              View Audit Log
            </Link>
          </div>
        ) : null}
      </div>

      <section aria-labelledby="user-management-heading" className="grid gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="user-management-heading" className="text-lg font-semibold">
            User Management
          </h2>
          <CreateUserDialog />
        </div>
        <UsersList currentUserId={currentUserId} />
      </section>

      {adminFeature ? (
        <section aria-labelledby="security-heading">
          <CustomerDataSecurity />
        </section>
      ) : null}
    </div>
  );
}
