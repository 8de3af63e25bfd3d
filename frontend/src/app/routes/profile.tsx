import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ChangePinForm } from '@/features/identity/components/change-pin-form';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { nameOf } from '@/features/identity/utils/user-access';
import { usePageTitle } from '@/lib/use-page-title';

const PERMISSION_NAMES = { canRead: 'Read', canWrite: 'Write', canDelete: 'Delete', canManageUsers: 'Manage users' } as const;

/** The signed-in user and a form to change their own PIN. */
export function Component() {
  usePageTitle('Your Profile');
  const user = useSignedInUser();
  const granted = (Object.keys(PERMISSION_NAMES) as Array<keyof typeof PERMISSION_NAMES>).filter((key) => user.permissions[key]);

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Your Profile</h1>
        <p className="text-muted-foreground">Your account in {user.instance.displayName || user.instance.name}.</p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{nameOf(user)}</CardTitle>
          <CardDescription>Ask an admin to change your name, role or permissions.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[max-content_1fr]">
            <dt className="text-muted-foreground">Username</dt>
            <dd className="font-medium">{user.username}</dd>
            <dt className="text-muted-foreground">Display name</dt>
            <dd className={user.displayName ? 'font-medium' : 'text-muted-foreground italic'}>{user.displayName || 'No display name'}</dd>
            <dt className="text-muted-foreground">Role</dt>
            <dd>{user.role === 'admin' ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>}</dd>
            <dt className="text-muted-foreground">CRM</dt>
            <dd className="font-medium">
              {user.instance.displayName || user.instance.name}{' '}
              <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs font-normal">{user.instance.subdomain}</code>
            </dd>
            <dt className="text-muted-foreground">Permissions</dt>
            <dd>
              {granted.length === 0 ? (
                <span className="text-muted-foreground">None</span>
              ) : (
                <ul aria-label="Permissions" className="flex flex-wrap gap-1.5">
                  {granted.map((key) => (
                    <li key={key}>
                      <Badge variant="outline">{PERMISSION_NAMES[key]}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Change PIN</CardTitle>
          <CardDescription>Enter your current PIN, then the new one twice.</CardDescription>
        </CardHeader>
        <CardContent>
          <ChangePinForm />
        </CardContent>
      </Card>
    </div>
  );
}
