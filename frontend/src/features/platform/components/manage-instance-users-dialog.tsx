import type { CrmInstanceView } from '@crm/projections/platform';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { AddInstanceAdminForm } from './add-instance-admin-form';
import { InstanceUsersList } from './instance-users-list';

/**
 * "Manage users" for one instance: the super admin lists its users, resets a PIN, adds an admin.
 * The content, and its query, mount only while the dialog is open.
 */
export function ManageInstanceUsersDialog({
  instance,
  className,
}: {
  instance: Pick<CrmInstanceView, 'id' | 'displayName'>;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const headingId = useId();

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className={className}>
          Manage users<span className="sr-only"> of {instance.displayName}</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="gap-5 sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Users of {instance.displayName}</DialogTitle>
          <DialogDescription>Reset a user's PIN, or add an admin who can then add the rest of the staff.</DialogDescription>
        </DialogHeader>
        <section aria-labelledby={`${headingId}-users`} className="grid gap-2">
          <h3 id={`${headingId}-users`} className="text-sm font-semibold">
            Users
          </h3>
          <InstanceUsersList instanceId={instance.id} />
        </section>
        <section aria-labelledby={`${headingId}-add`} className="grid gap-3 border-t pt-4">
          <h3 id={`${headingId}-add`} className="text-sm font-semibold">
            Add admin
          </h3>
          <AddInstanceAdminForm instance={instance} />
        </section>
      </DialogContent>
    </Dialog>
  );
}
