import type { CurrentUserView } from '@crm/projections/identity';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { ChevronDownIcon, LogOutIcon } from '@/components/ui/icons';
import { instanceEntry, instanceFamilyOf, paths } from '@/config/paths';
import { useLogout } from '../api/logout';
import { nameOf } from '../utils/user-access';

/** The signed-in user's menu. */
export function AccountMenu({ user }: { user: CurrentUserView }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Back to this instance's login, whether or not the server heard us.
  const entry = instanceEntry(user.instance.subdomain, instanceFamilyOf(pathname));
  const logout = useLogout({ onSignedOut: () => void navigate(entry, { replace: true }) });

  const handleSignOut = () => {
    if (!logout.isPending) logout.mutate();
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        // The name contains the user name the trigger shows, so speech input ("click owner") finds it.
        aria-label={`Account menu for ${user.username}`}
        className="inline-flex h-10 items-center gap-2 rounded-md px-1.5 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:px-2"
      >
        {/* The initial is drawn by CSS, not written as text: the trigger's visible text is then
            the user name alone, which its accessible name contains. */}
        <span
          aria-hidden="true"
          data-initial={nameOf(user).slice(0, 1)}
          className="flex size-7 items-center justify-center rounded-full bg-primary/12 text-xs font-semibold uppercase text-primary before:content-[attr(data-initial)] dark:bg-primary/20"
        />
        <span className="hidden max-w-36 truncate sm:inline">{user.username}</span>
        <ChevronDownIcon aria-hidden="true" className="hidden size-4 text-muted-foreground sm:block" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          Signed in as <span className="font-semibold text-foreground">{user.username}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={paths.profile}>Your Profile</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to={paths.settings}>Settings</Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={handleSignOut}>
          <LogOutIcon />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
