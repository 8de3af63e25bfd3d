import { Navigate, useParams } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { instanceLinks, type InstanceLinks } from '@/config/paths';
import { RequireUser } from '@/features/identity/components/require-user';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { useUserSession } from '@/features/identity/hooks/use-user-session';
import { crmEntryTarget } from '@/features/identity/utils/staff-links';

/** Elements the router uses around and between the instance screens. */

export type InstancePage = Exclude<keyof InstanceLinks, 'entry'>;

/** Guards /crm/{instance}/…: only a session of that instance gets in. */
export function CrmInstanceGuard() {
  const { instance } = useParams();
  return <RequireUser instance={instance ?? ''} />;
}

/** /{subdomain}/… serves the canonical /crm/{subdomain}/… screens. */
export function SubdomainRedirect({ page }: { page: InstancePage }) {
  const { subdomain = '' } = useParams();
  return <Navigate to={instanceLinks(subdomain)[page]} replace />;
}

/**
 * /crm/pipeline, /crm/calendar, … (where /pipeline, /calendar and /admin lead):
 * the page of the signed-in user's instance. Inside RequireUser.
 */
export function SignedInInstanceRedirect({ page }: { page: InstancePage }) {
  const user = useSignedInUser();
  return <Navigate to={instanceLinks(user.instance.subdomain)[page]} replace />;
}

/**
 * /crm (where /login leads): a signed-in staff member lands on their dashboard, not on the
 * provider's pages; without a staff session it leads to /.
 */
export function CrmEntryRedirect() {
  const target = crmEntryTarget(useUserSession());
  if (target === null) return <PageSpinner label="Loading..." />;
  return <Navigate to={target} replace />;
}
