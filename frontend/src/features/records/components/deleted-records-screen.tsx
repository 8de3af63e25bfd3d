import { formatDateTime } from '@crm/projections/contract';
import type { DeletedKind, DeletedRecord, RestoredView } from '@crm/projections/records';
import { type ReactNode, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useDeletedRecords, useRestoreRecord } from '../api/deleted-records';

const FILTERS: Array<{ value: DeletedKind | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'customer', label: 'Customers' },
  { value: 'job', label: 'Jobs' },
];

function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return 'Only administrators can see deleted records.';
  return errorMessage(error, 'Failed to load the deleted records');
}

function recordTitle(record: DeletedRecord): string {
  if (record.kind === 'job') return `Job #${record.number}${record.name ? ` · ${record.name}` : ''}`;
  return `Customer ${record.number}${record.name ? ` · ${record.name}` : ''}`;
}

function RestoreButton({
  restore,
  record,
  customerName,
}: {
  restore: ReturnType<typeof useRestoreRecord>;
  record: DeletedRecord;
  customerName: string | null;
}) {
  const pending = restore.isPending && restore.variables?.id === record.id;
  // A job that went with its customer comes back with the customer, not on its own.
  if (record.withCustomerId) {
    return <span className="text-xs text-muted-foreground">Restore {customerName ?? 'its customer'} to bring it back</span>;
  }
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      disabled={pending}
      aria-label={`Restore ${recordTitle(record)}`}
      onClick={() =>
        restore.mutate(
          { kind: record.kind, id: record.id },
          {
            onSuccess: (result) =>
              toast({
                title: record.kind === 'customer' ? 'Customer restored' : 'Job restored',
                description: record.kind === 'customer' ? customerBack(record, result) : `${recordTitle(record)} is back in the pipeline.`,
              }),
            onError: (error) =>
              toast({ title: 'Could not restore', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
          },
        )
      }
    >
      {pending ? 'Restoring...' : 'Restore'}
    </Button>
  );
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** What came back with a customer, and each vehicle whose VIN another vehicle took meanwhile. */
function customerBack(record: DeletedRecord, result: RestoredView): string {
  const withIt = [
    ...(result.jobsRestored > 0 ? [count(result.jobsRestored, 'job')] : []),
    ...(result.vehiclesRestored > 0 ? [count(result.vehiclesRestored, 'vehicle')] : []),
  ];
  const back = `${record.name || 'The customer'} is back${withIt.length > 0 ? ` with ${withIt.join(' and ')}` : ''}.`;
  return [back, ...result.vinsNotRestored.map((vin) => vin.message)].join(' ');
}

/**
 * The admins' deleted jobs and customers, newest deletion first: who deleted each and when.
 * Restoring brings a record back with its history; a customer brings back the jobs its
 * deletion removed (those are listed under it until then).
 */
export function DeletedRecordsScreen({ instance, backLink }: { instance: string; backLink?: ReactNode }) {
  const [filter, setFilter] = useState<DeletedKind | 'all'>('all');
  const records = useDeletedRecords(instance);
  // One mutation for the list: a restored row leaves it, and its toast must still show.
  const restore = useRestoreRecord(instance);
  const all = records.data ?? [];
  const names = new Map(all.filter((r) => r.kind === 'customer').map((r) => [r.id, r.name || `customer ${r.number}`]));
  const shown = all.filter((record) => filter === 'all' || record.kind === filter);

  return (
    <div className="grid gap-6">
      {backLink}
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Deleted records</h1>
        <p className="text-muted-foreground">Deleted customers and jobs, newest first. Restoring brings a record back with its history.</p>
      </div>
      <div role="group" aria-label="Show" className="flex flex-wrap gap-2">
        {FILTERS.map((option) => (
          <Button
            key={option.value}
            type="button"
            size="sm"
            variant={filter === option.value ? 'primary' : 'outline'}
            aria-pressed={filter === option.value}
            onClick={() => setFilter(option.value)}
          >
            {option.label}
          </Button>
        ))}
      </div>
      {records.isPending ? (
        <Spinner label="Loading deleted records..." className="py-6" />
      ) : records.isError ? (
        <Alert>{loadErrorText(records.error)}</Alert>
      ) : shown.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">Nothing deleted</p>
      ) : (
        <ul className="grid gap-2" aria-label="Deleted records">
          {shown.map((record) => {
            const customerName = record.withCustomerId ? (names.get(record.withCustomerId) ?? null) : null;
            return (
              <li
                key={record.id}
                data-testid="deleted-record"
                className="flex flex-col gap-3 rounded-lg border bg-card p-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="grid min-w-0 gap-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <Badge variant={record.kind === 'customer' ? 'secondary' : 'outline'}>
                      {record.kind === 'customer' ? 'Customer' : 'Job'}
                    </Badge>
                    <span className="min-w-0 font-medium">{recordTitle(record)}</span>
                  </span>
                  <span className="text-xs text-muted-foreground">
                    Deleted by {record.deletedBy} · <time dateTime={record.deletedAt}>{formatDateTime(record.deletedAt)}</time>
                    {record.withCustomerId ? ` · with ${customerName ?? 'its customer'}` : ''}
                  </span>
                </div>
                <RestoreButton restore={restore} record={record} customerName={customerName} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
