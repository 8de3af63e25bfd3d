import type { CustomerHistoryEntry } from '@crm/projections/customers';
import { Link, useNavigate } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { toast } from '@/lib/toast';
import { useCustomerHistory } from '../api/get-customer-history';
import { useUndoCustomerMerge } from '../api/merge-customer';
import type { CustomerPaths } from '../utils/customer-paths';

type MergeEntry = NonNullable<CustomerHistoryEntry['merge']>;

/** A merge row's Undo (admins): the merged-away customer comes back, and the page shows it. */
export function UndoMergeButton({ instance, merge, paths }: { instance: string; merge: MergeEntry; paths: CustomerPaths }) {
  const navigate = useNavigate();
  const undo = useUndoCustomerMerge(instance);
  return (
    <div className="flex justify-end">
      <Button
        variant="outline"
        size="sm"
        disabled={undo.isPending}
        onClick={() =>
          undo.mutate(merge.fromId, {
            onSuccess: (answer) => {
              toast({
                title: 'Merge undone',
                description: `${merge.fromName || 'The customer'} is back with ${answer.jobsMoved} job(s) and ${answer.vehiclesMoved} vehicle(s).`,
              });
              void navigate(paths.detail(merge.fromId));
            },
            onError: (error) => {
              reportFailure('Undo customer merge failed', error);
              toast({ title: 'Error', description: errorMessage(error, 'Could not undo the merge'), variant: 'destructive' });
            },
          })
        }
      >
        {undo.isPending ? 'Undoing...' : 'Undo merge'}
      </Button>
    </div>
  );
}

/** Why a customer page finds no customer: merged into another (linked) or deleted. */
export function MergedAwayNotice({ instance, customerId, paths }: { instance: string; customerId: string; paths: CustomerPaths }) {
  const history = useCustomerHistory(instance, customerId);
  // Newest first: the latest merge row on the side that went away says where it is now.
  const latest = history.data?.find((entry) => entry.merge?.role === 'from');
  if (latest?.action === 'merged' && latest.merge) {
    return (
      <Alert variant="info">
        This customer was merged into{' '}
        <Link className="font-medium underline underline-offset-4" to={paths.detail(latest.merge.intoId)}>
          {latest.merge.intoName || 'another customer'}
        </Link>
        . Its jobs and vehicles are there now.
      </Alert>
    );
  }
  return <Alert>Customer not found. It may have been deleted.</Alert>;
}
