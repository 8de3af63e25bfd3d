import { instanceLinks } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { TakingsScreen } from '@/features/takings/components/takings-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/reports/takings: the day's takings, for staff who take payments (the server checks). */
export function Component() {
  usePageTitle('Takings');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  return (
    <TakingsScreen key={instance} instance={instance} timeZone={user.instance.timeZone} pipelinePath={instanceLinks(instance).pipeline} />
  );
}
