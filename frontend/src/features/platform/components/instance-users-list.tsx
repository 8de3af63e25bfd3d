import type { UserView } from '@crm/projections/identity';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useInstanceUsers } from '../api/get-instance-users';
import { ResetPinForm } from '@/components/reset-pin-form';
import { resetInstanceUserPin } from '../api/reset-instance-user-pin';

const triggerId = (userId: string) => `reset-pin-trigger-${userId}`;

function UserRow({
  instanceId,
  user,
  resetOpen,
  onToggleReset,
}: {
  instanceId: string;
  user: UserView;
  resetOpen: boolean;
  onToggleReset: (open: boolean) => void;
}) {
  const formId = `reset-pin-${user.id}`;
  const closeReset = () => {
    onToggleReset(false);
    // Back to the button that opened the form, which stays mounted.
    requestAnimationFrame(() => document.getElementById(triggerId(user.id))?.focus());
  };
  return (
    <li className="grid gap-3 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium">{user.username}</p>
          <p className={user.displayName ? 'truncate text-sm text-muted-foreground' : 'text-sm text-muted-foreground italic'}>
            {user.displayName || 'No display name'}
          </p>
        </div>
        <div className="flex flex-wrap gap-1.5">
          {user.role === 'admin' ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}
          {user.isLocked ? <Badge variant="destructive">Locked</Badge> : null}
        </div>
        <Button
          id={triggerId(user.id)}
          variant="outline"
          size="sm"
          aria-expanded={resetOpen}
          aria-controls={resetOpen ? formId : undefined}
          onClick={() => (resetOpen ? closeReset() : onToggleReset(true))}
        >
          Reset PIN<span className="sr-only"> for {user.username}</span>
        </Button>
      </div>
      {resetOpen ? (
        <ResetPinForm
          user={user}
          id={formId}
          onReset={(pin) => resetInstanceUserPin({ instanceId, userId: user.id, pin })}
          onDone={closeReset}
        />
      ) : null}
    </li>
  );
}

/** An instance's users with a Reset PIN action each; loading, error and empty states. */
export function InstanceUsersList({ instanceId }: { instanceId: string }) {
  const { data: users, isPending, isError, error, refetch, isFetching } = useInstanceUsers(instanceId);
  // One reset form open at a time.
  const [resetUserId, setResetUserId] = useState<string | null>(null);

  if (isPending) return <Spinner label="Loading users..." />;
  if (isError) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Alert className="flex-1">{errorMessage(error, 'Could not load the users.')}</Alert>
        <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  if (users.length === 0) return <p className="text-sm text-muted-foreground">No users yet. Add the first admin.</p>;
  return (
    <ul aria-label="Users" className="divide-y rounded-lg border px-3">
      {users.map((user) => (
        <UserRow
          key={user.id}
          instanceId={instanceId}
          user={user}
          resetOpen={resetUserId === user.id}
          onToggleReset={(open) => setResetUserId(open ? user.id : null)}
        />
      ))}
    </ul>
  );
}
