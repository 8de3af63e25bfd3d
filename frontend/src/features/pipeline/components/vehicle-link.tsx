import type { JobView } from '@crm/projections/pipeline';
import { Link } from 'react-router-dom';
import { vehiclePath } from '@/config/paths';

/** A job's vehicle: a link to the vehicle's page when the job is on a vehicle record, its text otherwise. */
export function VehicleLink({ instance, job }: { instance: string; job: Pick<JobView, 'makeModel' | 'vehicleId'> }) {
  if (!job.vehicleId) return <>{job.makeModel}</>;
  return (
    <Link
      to={vehiclePath(instance, job.vehicleId)}
      // Above a card's card-wide "open the job" button (its ::after covers the card).
      className="relative z-10 text-primary underline-offset-4 hover:underline"
      // The row or card opens the job; the link opens the vehicle only.
      onClick={(event) => event.stopPropagation()}
    >
      {job.makeModel || 'Vehicle'}
    </Link>
  );
}
