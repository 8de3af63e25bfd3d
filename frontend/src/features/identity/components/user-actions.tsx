import type { CurrentUserView } from '@crm/projections/contract';
import type { UserView } from '@crm/projections/identity';
import { mayChangeRoles, mayManageUser } from '../utils/user-access';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { cn } from '@/lib/cn';
import { CONFLICT_FALLBACK } from '@/lib/concurrency';
import { toast } from '@/lib/toast';
import { useChangeUserRole } from '../api/change-user-role';
import { useDeleteUser } from '../api/delete-user';
import { useClearSignInLock } from '../api/clear-sign-in-lock';
import { useSetUserLocked } from '../api/set-user-locked';
import { lockedOutUntil } from '../utils/lockout';
import { USER_ERRORS } from '../constants/user-messages';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ResetPinForm } from '@/components/reset-pin-form';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { resetUserPin } from '../api/reset-user-pin';
import { conflictingUser } from '../api/update-user-list';
import { PermissionsDialog } from './permissions-dialog';
import { type UserConflict, UserConflictDialog } from './user-conflict-dialog';

type Confirming = 'lock' | 'unlock' | 'delete' | null;

function failed(error: unknown, fallback: string) {
  reportFailure(fallback, error);
  toast({ title: 'Error', description: errorMessage(error, fallback), variant: 'destructive' });
}

/**
 * A user's row actions: Make Admin / Make User at once, Lock /
 * Unlock and Delete after a confirmation, and the permissions editor. One's own account gets
 * none (the server refuses them): the row says why and where one's own PIN is changed instead.
 */
export function UserActions({
  user,
  isSelf,
  viewer,
  layout = 'row',
  className,
}: {
  user: UserView;
  isSelf: boolean;
  /** Who is looking: only what they may do is offered (the server refuses the rest). */
  viewer: Pick<CurrentUserView, 'role' | 'permissions'>;
  /** 'grid': two columns of equal buttons, for the narrow screens' cards. */
  layout?: 'row' | 'grid';
  className?: string;
}) {
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [editingPermissions, setEditingPermissions] = useState(false);
  const [resettingPin, setResettingPin] = useState(false);
  const [conflict, setConflict] = useState<UserConflict | null>(null);
  const changeRole = useChangeUserRole();
  const setLocked = useSetUserLocked();
  const deleteUser = useDeleteUser();
  const clearLockout = useClearSignInLock();
  const who = user.username;
  const lockedOut = !user.isLocked && lockedOutUntil(user) !== null;
  // Every change names the version this row shows (If-Match): a user changed since is a 409.
  const revision = user.revision;

  /** A 409 offers the user as it is now; anything else is a toast. */
  const handleError = (error: unknown, fallback: string) => {
    const current = conflictingUser(error);
    if (!current) return failed(error, fallback);
    reportFailure(fallback, error);
    setConflict({ current, message: errorMessage(error, CONFLICT_FALLBACK) });
  };

  const handleRoleChange = () => {
    if (changeRole.isPending) return;
    const role = user.role === 'admin' ? 'user' : 'admin';
    changeRole.mutate(
      { userId: user.id, role, revision },
      {
        onSuccess: () => toast({ title: 'Role updated', description: `${who} is now ${role === 'admin' ? 'an admin' : 'a user'}.` }),
        onError: (error) => handleError(error, USER_ERRORS.role),
      },
    );
  };

  const handleLockChange = (isLocked: boolean) => {
    setLocked.mutate(
      { userId: user.id, isLocked, revision },
      {
        onSuccess: () =>
          toast({
            title: isLocked ? 'User locked' : 'User unlocked',
            description: `${who} ${isLocked ? 'can no longer' : 'can'} sign in.`,
          }),
        onError: (error) => handleError(error, isLocked ? USER_ERRORS.lock : USER_ERRORS.unlock),
        onSettled: () => setConfirming(null),
      },
    );
  };

  const handleClearLockout = () => {
    if (clearLockout.isPending) return;
    clearLockout.mutate(
      { userId: user.id, revision },
      {
        onSuccess: () => toast({ title: 'Lockout cleared', description: `${who} can sign in again.` }),
        onError: (error) => handleError(error, USER_ERRORS.clearLockout),
      },
    );
  };

  const handleDelete = () => {
    deleteUser.mutate(
      { userId: user.id, revision },
      {
        onSuccess: () => toast({ title: 'User deleted', description: `${who} was deleted.` }),
        onError: (error) => handleError(error, USER_ERRORS.delete),
        onSettled: () => setConfirming(null),
      },
    );
  };

  if (isSelf) {
    return (
      <p className={cn('text-xs text-muted-foreground', className)}>
        You cannot change, lock or delete your own account.{' '}
        <Link to={paths.profile} className="font-medium text-primary underline underline-offset-2">
          Change your PIN
        </Link>
      </p>
    );
  }

  if (!mayManageUser(viewer, user)) {
    return (
      <p className={cn('text-xs text-muted-foreground', className)}>
        {user.role === 'admin'
          ? 'Only an admin can change an admin account.'
          : 'Has permissions you do not hold: an admin manages this account.'}
      </p>
    );
  }

  return (
    <div className={cn(layout === 'grid' ? 'grid grid-cols-2 gap-2' : 'flex flex-wrap items-center gap-2', className)}>
      {mayChangeRoles(viewer) ? (
        <Button variant="outline" size="sm" aria-disabled={changeRole.isPending || undefined} onClick={handleRoleChange}>
          {changeRole.isPending ? 'Saving...' : user.role === 'admin' ? 'Make User' : 'Make Admin'}
        </Button>
      ) : null}
      <Button variant="outline" size="sm" onClick={() => setConfirming(user.isLocked ? 'unlock' : 'lock')}>
        {user.isLocked ? 'Unlock' : 'Lock'}
      </Button>
      {lockedOut ? (
        <Button variant="outline" size="sm" aria-disabled={clearLockout.isPending || undefined} onClick={handleClearLockout}>
          {clearLockout.isPending ? 'Clearing...' : 'Clear Lockout'}
        </Button>
      ) : null}
      <Button variant="outline" size="sm" onClick={() => setEditingPermissions(true)}>
        Permissions
      </Button>
      <Button variant="outline" size="sm" onClick={() => setResettingPin(true)}>
        Reset PIN
      </Button>
      <Dialog open={resettingPin} onOpenChange={setResettingPin}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>Reset PIN for {who}</DialogTitle>
            <DialogDescription>They sign in with the new PIN; their open sessions end.</DialogDescription>
          </DialogHeader>
          <ResetPinForm
            user={user}
            id={`reset-pin-${user.id}`}
            onReset={async (pin) => {
              try {
                await resetUserPin({ userId: user.id, pin, revision });
              } catch (error) {
                const current = conflictingUser(error);
                if (current) {
                  setResettingPin(false);
                  setConflict({ current, message: errorMessage(error, CONFLICT_FALLBACK) });
                }
                throw error;
              }
            }}
            onDone={() => setResettingPin(false)}
          />
        </DialogContent>
      </Dialog>
      <Button
        variant="outline"
        size="sm"
        className="text-destructive hover:bg-destructive/10 hover:text-destructive"
        onClick={() => setConfirming('delete')}
      >
        Delete
      </Button>

      <ConfirmDialog
        open={confirming === 'lock' || confirming === 'unlock'}
        onOpenChange={(open) => {
          if (!open && !setLocked.isPending) setConfirming(null);
        }}
        title={confirming === 'unlock' ? `Unlock ${who}?` : `Lock ${who}?`}
        description={
          confirming === 'unlock'
            ? 'Are you sure you want to unlock this user account?'
            : 'Are you sure you want to lock this user account?'
        }
        confirmLabel={confirming === 'unlock' ? 'Unlock' : 'Lock'}
        pendingLabel={confirming === 'unlock' ? 'Unlocking...' : 'Locking...'}
        variant="primary"
        pending={setLocked.isPending}
        onConfirm={() => handleLockChange(confirming === 'lock')}
      />
      <ConfirmDialog
        open={confirming === 'delete'}
        onOpenChange={(open) => {
          if (!open && !deleteUser.isPending) setConfirming(null);
        }}
        title={`Delete ${who}?`}
        description="Are you sure you want to delete this user? They will no longer be able to sign in. This cannot be undone."
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        variant="destructive"
        pending={deleteUser.isPending}
        onConfirm={handleDelete}
      />
      <PermissionsDialog user={user} open={editingPermissions} onOpenChange={setEditingPermissions} />
      <UserConflictDialog conflict={conflict} onClose={() => setConflict(null)} />
    </div>
  );
}
