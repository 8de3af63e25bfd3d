import { Navigate, useParams } from 'react-router-dom';
import { instanceLinks, jobPath } from '@/config/paths';
import { useSignedInUser } from '@/features/identity/hooks/use-signed-in-user';
import { JobDocumentView } from '@/features/pipeline/components/repair-order/job-document';

/** /crm/{instance}/pipeline/{id}/estimate and …/invoice: the job's document as a page to print. */
export function Component() {
  const { id = '', document } = useParams();
  const user = useSignedInUser();
  const instance = user.instance.subdomain;
  if (document !== 'estimate' && document !== 'invoice') return <Navigate to={instanceLinks(instance).pipeline} replace />;
  return (
    <JobDocumentView
      key={`${id}-${document}`}
      instance={instance}
      jobId={id}
      document={document}
      jobHref={jobPath(instanceLinks(instance).pipeline, id)}
      instanceName={user.instance.displayName || user.instance.name}
    />
  );
}
