import type { UserView } from '@crm/projections/identity';
import { useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { replaceUserInList } from '../api/update-user-list';

/** A change refused because someone else changed the user first (409), with the user as it is now. */
export interface UserConflict {
  current: UserView;
  message: string;
}

/**
 * Says that the user changed since the list was loaded and offers the current version,
 * as the job entry dialog does: loading it puts the user as it is now into the list, and
 * the admin decides again from there.
 */
export function UserConflictDialog({ conflict, onClose }: { conflict: UserConflict | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const who = conflict?.current.username ?? '';
  return (
    <ConfirmDialog
      open={conflict !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`${who} was changed`}
      description={conflict?.message ?? ''}
      cancelLabel="Close"
      confirmLabel="Load current version"
      variant="primary"
      onConfirm={() => {
        if (conflict) void replaceUserInList(queryClient, conflict.current.id, conflict.current);
        onClose();
      }}
    />
  );
}
