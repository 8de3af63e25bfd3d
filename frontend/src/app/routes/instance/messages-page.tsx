import { customerPath, instanceLinks, jobPath } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canWrite } from '@/features/identity/utils/user-access';
import { MessagesScreen } from '@/features/messages/components/messages-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/messages: the shop's outbox (sent, queued, failed, not sent) with retries. */
export function Component() {
  usePageTitle('Messages');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const { features } = user.instance;
  const links = instanceLinks(instance);
  return (
    <MessagesScreen
      key={instance}
      instance={instance}
      templatesPath={`${instanceLinks(instance).entry}/messages/templates`}
      canRetry={canWrite(user)}
      isAdmin={user.role === 'admin'}
      recordLinks={{
        job: (jobId) => (features.pipeline ? jobPath(links.pipeline, jobId) : null),
        customer: (customerId) => (features.customers ? customerPath(instance, customerId) : null),
      }}
    />
  );
}
