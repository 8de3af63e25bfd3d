import type { UserView } from '@crm/projections/identity';
import { Badge } from '@/components/ui/badge';

export function UserStatusBadge({ user }: { user: Pick<UserView, 'isLocked'> }) {
  return user.isLocked ? <Badge variant="destructive">Locked</Badge> : <Badge variant="success">Active</Badge>;
}

export function UserRoleBadge({ user }: { user: Pick<UserView, 'role'> }) {
  return user.role === 'admin' ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>;
}
