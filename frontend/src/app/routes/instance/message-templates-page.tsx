import { Navigate } from 'react-router-dom';
import { instanceLinks } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { TemplatesScreen } from '@/features/messages/components/templates-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/messages/templates: the admins' template editor (the server refuses others' saves). */
export function Component() {
  usePageTitle('Message templates');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const messagesPath = `${instanceLinks(instance).entry}/messages`;
  if (user.role !== 'admin') return <Navigate to={messagesPath} replace />;
  return <TemplatesScreen key={instance} instance={instance} messagesPath={messagesPath} />;
}
