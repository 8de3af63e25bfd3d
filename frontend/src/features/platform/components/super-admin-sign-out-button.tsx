import { Button, type ButtonProps } from '@/components/ui/button';
import { LogOutIcon } from '@/components/ui/icons';
import { useLogoutSuperAdmin } from '../api/logout-super-admin';

export function SuperAdminSignOutButton({ variant = 'outline', children = 'Sign out', ...props }: Omit<ButtonProps, 'onClick'>) {
  const logout = useLogoutSuperAdmin();
  return (
    <Button
      variant={variant}
      onClick={() => {
        if (!logout.isPending) logout.mutate();
      }}
      aria-disabled={logout.isPending || undefined}
      {...props}
    >
      <LogOutIcon />
      {logout.isPending ? 'Signing out...' : children}
    </Button>
  );
}
