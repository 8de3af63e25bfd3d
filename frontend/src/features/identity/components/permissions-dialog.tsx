import { PERMISSION_KEYS, type Permissions, type UserView } from '@crm/projections/identity';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { SaveErrorMessage } from '@/components/save-error-message';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { CONFLICT_FALLBACK } from '@/lib/concurrency';
import { toast } from '@/lib/toast';
import { useChangeUserPermissions } from '../api/change-user-permissions';
import { conflictingUser, replaceUserInList } from '../api/update-user-list';
import { PERMISSION_LABELS } from '../constants/permission-labels';
import { USER_ERRORS } from '../constants/user-messages';
import { changedPermissions } from '../utils/changed-permissions';

/** Edits one user's per-instance permissions (canRead, canWrite, canDelete, canManageUsers). */
export function PermissionsDialog({ user, open, onOpenChange }: { user: UserView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const id = useId();
  const [draft, setDraft] = useState<Permissions>(user.permissions);
  const changePermissions = useChangeUserPermissions();
  const queryClient = useQueryClient();
  // A save refused because someone else changed the user meanwhile (409) carries the user as it is now.
  const conflict = changePermissions.isError ? conflictingUser(changePermissions.error) : null;
  // An admin always has every permission (the server refuses to change them).
  const fixed = user.role === 'admin';

  const handleOpenChange = (next: boolean) => {
    if (next) {
      setDraft(user.permissions);
      changePermissions.reset();
    }
    onOpenChange(next);
  };

  /** The user as it is now goes into the list (so the next save names its version) and the boxes show its permissions. */
  const handleLoadCurrent = (current: UserView) => {
    void replaceUserInList(queryClient, current.id, current);
    setDraft(current.permissions);
    changePermissions.reset();
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
      // Only over the version this dialog shows (If-Match).
      { userId: user.id, changes, revision: user.revision },
      {
        onSuccess: () => {
          toast({ title: 'Permissions updated', description: `Saved the permissions of ${user.username}.` });
          onOpenChange(false);
        },
        onError: (error) => reportFailure('Change permissions failed', error),
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
          <Alert>
            {changePermissions.isError ? (
              <SaveErrorMessage
                message={errorMessage(changePermissions.error, conflict ? CONFLICT_FALLBACK : USER_ERRORS.permissions)}
                onLoadCurrent={conflict ? () => handleLoadCurrent(conflict) : undefined}
              />
            ) : null}
          </Alert>
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
