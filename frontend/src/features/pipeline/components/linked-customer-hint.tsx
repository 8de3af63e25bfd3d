import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { customerPath } from '@/config/paths';
import { getCustomerContact } from '@/lib/api/customer-contact';
import { pipelineQueryKey } from '../api/pipeline-api-path';

/** "Linked to customer Ann Lee", the name a link to the customer's page (read when not known yet). */
export function LinkedCustomerHint({ instance, customerId, name }: { instance: string; customerId: string; name?: string }) {
  const customer = useQuery({
    queryKey: [...pipelineQueryKey(instance), 'linked-customer', customerId],
    queryFn: () => getCustomerContact(instance, customerId),
    enabled: name === undefined,
    retry: false,
  });
  const shown = name ?? customer.data?.name;
  return (
    <span>
      Linked to customer{' '}
      <Link to={customerPath(instance, customerId)} className="font-medium text-primary underline-offset-4 hover:underline">
        {shown || (customer.isError ? 'record' : shown === '' ? 'record' : '…')}
      </Link>
    </span>
  );
}
