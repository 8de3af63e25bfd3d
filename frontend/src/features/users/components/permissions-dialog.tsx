import { PERMISSION_KEYS, type Permissions, type UserView } from '@crm/projections/domain';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useChangeUserPermissions } from '../api/change-user-permissions';
import { PERMISSION_LABELS } from '../constants/permission-labels';
import { USER_ERRORS } from '../constants/user-messages';
import { changedPermissions } from '../utils/changed-permissions';

/** Edits one user's per-instance permissions (canRead, canWrite, canDelete, canManageUsers). */
export function PermissionsDialog({ user, open, onOpenChange }: { user: UserView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<Permissions>(user.permissions);
  const changePermissions = useChangeUserPermissions();
  // An admin always has every permission (the server refuses to change them).
  const fixed = user.role === 'admin';

  const handleOpenChange = (next: boolean) => {
    if (next) {
      setDraft(user.permissions);
      changePermissions.reset();
    }
    onOpenChange(next);
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (changePermissions.isPending) return;
    const changes = changedPermissions(user.permissions, draft);
    if (fixed || Object.keys(changes).length === 0) {
      onOpenChange(false);
      return;
    }
    changePermissions.mutate(
      { userId: user.id, changes },
      {
        onSuccess: () => {
          toast({ title: 'Permissions updated', description: `Saved the permissions of ${user.username}.` });
          onOpenChange(false);
        },
        onError: (error) => console.error('Change permissions failed', error),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={handleOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Permissions for {user.username}</DialogTitle>
          <DialogDescription>
            {fixed
              ? 'Admins always have every permission. Make this account a user to limit what it can do.'
              : 'What this user may do in this CRM.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={handleSubmit} className="grid gap-5">
          <fieldset className="grid gap-2" disabled={fixed}>
            <legend className="sr-only">Permissions</legend>
            {PERMISSION_KEYS.map((key) => (
              <Checkbox
                key={key}
                id={`${id}-${key}`}
                label={PERMISSION_LABELS[key].label}
                description={PERMISSION_LABELS[key].description}
                checked={draft[key]}
                onChange={(event) => {
                  const checked = event.target.checked;
                  setDraft((current) => ({ ...current, [key]: checked }));
                }}
                className={fixed ? 'opacity-70' : undefined}
              />
            ))}
          </fieldset>
          <Alert>{changePermissions.isError ? errorMessage(changePermissions.error, USER_ERRORS.permissions) : null}</Alert>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">{fixed ? 'Close' : 'Cancel'}</Button>
            </DialogClose>
            {fixed ? null : (
              <Button type="submit" aria-disabled={changePermissions.isPending || undefined}>
                {changePermissions.isPending ? 'Saving...' : 'Save Permissions'}
              </Button>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
