import type { CustomerView } from '@crm/projections/customers';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { reportFailure } from '@/lib/report-failure';
import { toast } from '@/lib/toast';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useCustomerJobs } from '../api/get-customer-jobs';
import { useCustomers } from '../api/get-customers';
import { useCustomerVehicleCount, useMergeCustomer } from '../api/merge-customer';
import { customerDisplayName } from '../utils/customer-display';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What the merge moves from `from`: its jobs and vehicles, counted before the admin confirms. */
function WhatMoves({ instance, from, into }: { instance: string; from: CustomerView; into: CustomerView }) {
  const jobs = useCustomerJobs(instance, from);
  const vehicles = useCustomerVehicleCount(instance, from.id, true);
  if (jobs.isPending || vehicles.isPending) return <Spinner label="Counting jobs and vehicles..." />;
  if (jobs.isError || vehicles.isError) return <Alert>Could not count this customer's jobs and vehicles.</Alert>;
  const moved = jobs.data.length;
  return (
    <div className="grid gap-2 rounded-lg border bg-muted/40 p-3 text-sm" data-testid="merge-summary-preview">
      <p>
        <strong className="font-semibold">{customerDisplayName(from)}</strong> (#{from.number}) goes into{' '}
        <strong className="font-semibold">{customerDisplayName(into)}</strong> (#{into.number}).
      </p>
      <p>
        Moves to {customerDisplayName(into)}: <strong className="font-semibold">{plural(moved, 'job')}</strong> and{' '}
        <strong className="font-semibold">{plural(vehicles.data, 'vehicle')}</strong>.
      </p>
      <p className="text-muted-foreground">
        {customerDisplayName(from)} leaves the customer list. Both histories show the merge, and an admin can undo it there.
      </p>
    </div>
  );
}

function MergeForm({ instance, from, onDone }: { instance: string; from: CustomerView; onDone: (mergedInto: string | null) => void }) {
  const [q, setQ] = useState(from.name);
  const search = useDebouncedValue(q, 250);
  const results = useCustomers(instance, { q: search, limit: 8 });
  const [picked, setPicked] = useState<CustomerView | null>(null);
  const merge = useMergeCustomer(instance);
  const candidates = (results.data?.pages.flatMap((page) => page.items) ?? []).filter((c) => c.id !== from.id);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!picked || merge.isPending) return;
    merge.mutate(
      { fromId: from.id, intoId: picked.id },
      {
        onSuccess: (answer) => {
          toast({
            title: 'Customers merged',
            description: `${customerDisplayName(from)} is now part of ${customerDisplayName(answer.customer)}: ${plural(answer.jobsMoved, 'job')} and ${plural(answer.vehiclesMoved, 'vehicle')} moved.`,
          });
          onDone(answer.intoId);
        },
        onError: (error) => {
          reportFailure('Merge customer failed', error);
          toast({ title: 'Error', description: errorMessage(error, 'Could not merge these customers'), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-4">
      <Field id="merge-customer-search" label="Customer to keep">
        <Input
          id="merge-customer-search"
          type="search"
          value={q}
          onChange={(event) => setQ(event.target.value)}
          placeholder="Search by name, phone or email"
          autoComplete="off"
        />
      </Field>
      <div role="radiogroup" aria-label="Customers found" className="grid max-h-56 gap-1 overflow-y-auto">
        {results.isPending ? <Spinner label="Searching..." /> : null}
        {!results.isPending && candidates.length === 0 ? <p className="text-sm text-muted-foreground">No other customer found.</p> : null}
        {candidates.map((c) => {
          const checked = picked?.id === c.id;
          return (
            <button
              key={c.id}
              type="button"
              role="radio"
              aria-checked={checked}
              onClick={() => setPicked(c)}
              className={cn(
                'grid gap-0.5 rounded-md border px-3 py-2 text-left text-sm transition-colors hover:bg-accent/60',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                checked && 'border-primary bg-primary/5',
              )}
            >
              <span className="font-medium">
                {customerDisplayName(c)} <span className="text-muted-foreground">#{c.number}</span>
              </span>
              <span className="truncate text-xs text-muted-foreground">
                {[c.phone, c.email, c.vehicleList.join(', ')].filter(Boolean).join(' · ') || 'No contact details'}
              </span>
            </button>
          );
        })}
      </div>
      {picked ? <WhatMoves instance={instance} from={from} into={picked} /> : null}
      {/* On a phone the dialog scrolls; its buttons stay in view at the bottom. */}
      <DialogFooter sticky>
        <Button variant="outline" onClick={() => onDone(null)}>
          Cancel
        </Button>
        <Button type="submit" disabled={!picked || merge.isPending}>
          {merge.isPending ? 'Merging...' : picked ? `Merge into ${customerDisplayName(picked)}` : 'Merge'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * An admin merges this customer into another (the same person entered twice): pick the one
 * to keep, see what moves, confirm.
 */
export function MergeCustomerDialog({
  instance,
  customer,
  onClose,
  onMerged,
}: {
  instance: string;
  /** Null: closed. */
  customer: CustomerView | null;
  onClose: () => void;
  onMerged: (intoId: string) => void;
}) {
  return (
    <Dialog open={customer !== null} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Merge Customer</DialogTitle>
          <DialogDescription>
            Merge {customer ? customerDisplayName(customer) : 'this customer'} into another customer who is the same person.
          </DialogDescription>
        </DialogHeader>
        {customer ? (
          <MergeForm
            key={customer.id}
            instance={instance}
            from={customer}
            onDone={(intoId) => {
              onClose();
              if (intoId) onMerged(intoId);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
