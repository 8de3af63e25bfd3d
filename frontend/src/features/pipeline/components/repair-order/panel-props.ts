import type { JobDetail } from '@crm/projections/contract';
import type { LoadedJob } from '../../api/get-job';

/** What each of the repair order's panels (estimate, invoice, payments) is given. */
export interface RepairOrderPanelProps {
  instance: string;
  job: JobDetail;
  loaded: LoadedJob;
  canWrite: boolean;
  /** After a command: the job it answered, and the ETag the command was sent with. */
  onSaved: (saved: LoadedJob, sentWith: string) => void;
  /** A line is being saved: wait for the job it makes. */
  linesSaving?: boolean;
}
