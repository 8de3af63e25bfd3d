import type { ServiceRequestView } from '@crm/projections/service-requests';
import { Button } from '@/components/ui/button';
import { UsersIcon } from '@/components/ui/icons';
import { useCustomerMatches } from '../api/get-customer-matches';

const MATCHED_ON_WORDS = { name: 'same name', phone: 'same phone', email: 'same email' } as const;

/**
 * Before a request becomes a job: the existing customers with the request's name or email,
 * each with a button that makes the job for that customer, so converting does not make
 * another copy of someone the shop already knows. Nothing shows when nobody matches.
 */
export function ConvertCustomerMatches({
  instance,
  request,
  onCreateJob,
}: {
  instance: string;
  request: ServiceRequestView;
  onCreateJob: (request: ServiceRequestView, customerId: string) => void;
}) {
  const matches = useCustomerMatches(instance, { name: request.customerName, email: request.contactEmail }, true);
  const items = matches.data ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="convert-matches-title" className="grid gap-2 rounded-md border bg-muted/40 p-3 text-sm">
      <h2 id="convert-matches-title" className="flex items-center gap-2 font-medium">
        <UsersIcon className="size-4" />
        Already a customer? {items.length === 1 ? 'One customer has' : `${items.length} customers have`} this name or email
      </h2>
      <ul className="grid gap-2">
        {items.map((match) => (
          <li key={match.id} className="flex flex-wrap items-center justify-between gap-2">
            <span>
              <strong>{match.name || '(no name)'}</strong> <span className="text-muted-foreground">#{match.number}</span>
              {match.email ? <span className="text-muted-foreground"> · {match.email}</span> : null}
              <span className="text-muted-foreground"> · {match.matchedOn.map((on) => MATCHED_ON_WORDS[on]).join(', ')}</span>
            </span>
            <Button size="sm" variant="outline" onClick={() => onCreateJob(request, match.id)}>
              Create job for {match.name || `#${match.number}`}
            </Button>
          </li>
        ))}
      </ul>
      <p className="text-muted-foreground">Create job above makes a new customer instead.</p>
    </section>
  );
}
