import type { CurrentUserView } from '@crm/projections/contract';
import { useSignedInUser } from '../hooks/use-signed-in-user';
import type { UserView } from '@crm/projections/identity';
import { useEffect } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useUsers } from '../api/get-users';
import { USER_ERRORS } from '../constants/user-messages';
import { UserActions } from './user-actions';
import { UserAccess, UserStatusBadge } from './user-status-badge';
import { reportFailure } from '@/lib/report-failure';

function YouBadge() {
  return (
    <Badge variant="outline" className="ml-2">
      You
    </Badge>
  );
}

type Viewer = Pick<CurrentUserView, 'role' | 'permissions'>;

/** Wide screens: a table. */
function UsersTable({ users, currentUserId, viewer }: { users: UserView[]; currentUserId: string; viewer: Viewer }) {
  return (
    <div className="hidden overflow-x-auto rounded-xl border bg-card md:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="border-b bg-muted/50 text-xs tracking-wide text-muted-foreground uppercase">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Username
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Display Name
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Role
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {users.map((user) => (
            <tr key={user.id} className="align-middle">
              <th scope="row" className="px-4 py-3 font-medium whitespace-nowrap">
                {user.username}
                {user.id === currentUserId ? <YouBadge /> : null}
              </th>
              <td className="px-4 py-3">{user.displayName || '-'}</td>
              <td className="px-4 py-3">
                <UserAccess user={user} />
              </td>
              <td className="px-4 py-3">
                <UserStatusBadge user={user} />
              </td>
              <td className="px-4 py-2">
                <UserActions user={user} isSelf={user.id === currentUserId} viewer={viewer} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Narrow screens: a card per user. A name is cut short (truncate) rather than wrapped, so its
 * whole width would count as the list's narrowest size: the one column may shrink below it
 * (grid-cols-1 is minmax(0, 1fr)) and so may the card's first row (min-w-0), or a long display
 * name widens the whole Admin page past a phone's screen.
 */
function UserCards({ users, currentUserId, viewer }: { users: UserView[]; currentUserId: string; viewer: Viewer }) {
  return (
    <ul className="grid grid-cols-1 gap-3 md:hidden" aria-label="Users">
      {users.map((user) => (
        <li key={user.id}>
          <Card className="grid gap-3 p-4">
            <div className="flex min-w-0 items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="truncate font-semibold">
                  {user.username}
                  {user.id === currentUserId ? <YouBadge /> : null}
                </p>
                <p className={user.displayName ? 'truncate text-sm' : 'text-sm text-muted-foreground italic'}>
                  {user.displayName || 'No display name'}
                </p>
              </div>
              <div className="flex shrink-0 gap-1.5">
                <UserAccess user={user} />
                <UserStatusBadge user={user} />
              </div>
            </div>
            <UserActions user={user} isSelf={user.id === currentUserId} viewer={viewer} layout="grid" className="border-t pt-3" />
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** The instance's users with their actions; loading, empty and error states. */
export function UsersList({ currentUserId }: { currentUserId: string }) {
  const viewer = useSignedInUser();
  const { data: users, isPending, isError, error, refetch, isFetching } = useUsers();

  useEffect(() => {
    if (!isError) return;
    reportFailure('Fetch users failed', error);
    toast({ title: 'Error', description: errorMessage(error, USER_ERRORS.fetch), variant: 'destructive' });
  }, [isError, error]);

  if (isPending) return <Spinner label="Loading users..." />;
  if (isError) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <Alert className="flex-1">{errorMessage(error, USER_ERRORS.fetch)}</Alert>
        <Button variant="outline" onClick={() => void refetch()} disabled={isFetching}>
          Try again
        </Button>
      </div>
    );
  }
  if (users.length === 0) return <p className="text-sm text-muted-foreground">No users found.</p>;
  return (
    <>
      <UsersTable users={users} currentUserId={currentUserId} viewer={viewer} />
      <UserCards users={users} currentUserId={currentUserId} viewer={viewer} />
    </>
  );
}
