import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { canDelete, canWrite, nameOf } from '@/features/identity/utils/user-access';
import { PipelineScreen } from '@/features/pipeline/components/pipeline-screen';
import { usePageTitle } from '@/lib/use-page-title';

/** /crm/{instance}/pipeline, /{subdomain}/pipeline and /maven/pipeline. */
export function Component() {
  usePageTitle('Pipeline');
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  const permissions = { canWrite: canWrite(user), canDelete: canDelete(user) };
  return <PipelineScreen key={instance} instance={instance} currentUserName={nameOf(user)} permissions={permissions} />;
}
