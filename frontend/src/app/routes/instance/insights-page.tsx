import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { InsightsScreen } from '@/features/insights/components/insights-screen';
import { useInstanceLinks } from '@/lib/use-instance-links';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/insights and /maven/insights: figures from the event history, for admins and managers (RequireUserManager). */
export function Component() {
  usePageTitle('Insights');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const links = useInstanceLinks(instance);
  return <InsightsScreen key={instance} instance={instance} timeZone={user.instance.timeZone} pipelinePath={links.pipeline} />;
}
