import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { CreateUserDialog } from './create-user-dialog';
import { CustomerDataSecurity } from './customer-data-security';
import { UsersList } from './users-list';

/** The Admin Dashboard (spec-working-screens.md §2): user management and the data-security notes. */
export function AdminDashboard({ currentUserId, auditPath }: { currentUserId: string; auditPath: string }) {
  return (
    <div className="grid gap-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Admin Dashboard</h1>
          <p className="text-muted-foreground">Manage who can use this CRM and what they may do.</p>
        </div>
        <Link to={auditPath} className={buttonVariants({ variant: 'outline', className: 'self-start sm:self-auto' })}>
          View Audit Log
        </Link>
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

      <section aria-labelledby="security-heading">
        <CustomerDataSecurity />
      </section>
    </div>
  );
}
