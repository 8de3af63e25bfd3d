import type { UserView } from '@crm/projections/identity';
import { Badge } from '@/components/ui/badge';
import { lockedOutText, lockedOutUntil } from '../utils/lockout';
import { permissionsText } from '../utils/user-access';

/** Locked by an admin; locked out for now after failed sign-ins (until when); or active. */
export function UserStatusBadge({ user }: { user: Pick<UserView, 'isLocked' | 'signInLockedUntil'> }) {
  if (user.isLocked) return <Badge variant="destructive">Locked</Badge>;
  const until = lockedOutUntil(user);
  if (until) return <Badge variant="destructive">{lockedOutText(until)}</Badge>;
  return <Badge variant="success">Active</Badge>;
}

export function UserRoleBadge({ user }: { user: Pick<UserView, 'role'> }) {
  return user.role === 'admin' ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>;
}

/** The role and, beside it, what the user may do: a read-only user and a manager do not both read just "User". */
export function UserAccess({ user }: { user: Pick<UserView, 'role' | 'permissions'> }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1">
      <UserRoleBadge user={user} />
      <span className="text-xs text-muted-foreground" data-testid="user-permissions">
        {permissionsText(user)}
      </span>
    </span>
  );
}
