import { Link } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { DownloadIcon } from '@/components/ui/icons';
import { pipelineApiPath } from '../../api/pipeline-api-path';

export type JobDocument = 'estimate' | 'invoice';

/** The document's print view (a page of its own, for the browser's Print) and its PDF. */
export function DocumentLinks({ instance, jobId, document }: { instance: string; jobId: string; document: JobDocument }) {
  const name = document === 'estimate' ? 'Estimate' : 'Invoice';
  return (
    <>
      <Link
        to={`/crm/${encodeURIComponent(instance)}/pipeline/${encodeURIComponent(jobId)}/${document}`}
        target="_blank"
        className={buttonVariants({ variant: 'outline', size: 'sm' })}
      >
        Print {name.toLowerCase()}
      </Link>
      <a
        href={pipelineApiPath(instance, jobId, `${document}.pdf`)}
        target="_blank"
        rel="noreferrer"
        className={buttonVariants({ variant: 'outline', size: 'sm' })}
      >
        <DownloadIcon />
        {name} PDF
      </a>
    </>
  );
}
