import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { getCustomerContact } from '@/lib/api/customer-contact';
import { pipelineQueryKey } from '../api/pipeline-api-path';

/** Above a list narrowed to one customer's jobs: whose they are, and the way back to all jobs. */
export function CustomerFilterNote({ instance, customerId, onClear }: { instance: string; customerId: string; onClear: () => void }) {
  const customer = useQuery({
    queryKey: [...pipelineQueryKey(instance), 'customer-filter', customerId],
    queryFn: () => getCustomerContact(instance, customerId),
    retry: false,
  });
  const name = customer.data ? customer.data.name || 'this customer' : customer.isError ? 'a customer' : '…';
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm"
      data-testid="customer-filter"
    >
      <span>
        Showing the jobs of <strong className="font-semibold">{name}</strong>
      </span>
      <Button variant="outline" size="sm" onClick={onClear}>
        Show all jobs
      </Button>
    </div>
  );
}
