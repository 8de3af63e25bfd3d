import type { CustomerView } from '@crm/projections/customers';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PlusIcon, SearchIcon, XIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useCustomers } from '../api/get-customers';
import { CUSTOMER_TEXTS, SEARCH_DEBOUNCE_MS } from '../constants/customer-texts';
import { customerDisplayName } from '../utils/customer-display';
import { loadErrorMessage } from '../utils/load-error-message';
import type { CustomerPaths, CustomerPermissions } from '../utils/customer-paths';
import { CustomerCard } from './customer-card';
import { type CustomerDialogTarget, CustomerFormDialog } from './customer-form-dialog';
import { type CustomerToDelete, DeleteCustomerDialog } from './delete-customer-dialog';

function EmptyState({ searching, canWrite }: { searching: boolean; canWrite: boolean }) {
  return (
    <Card className="grid place-items-center gap-1 border-dashed px-6 py-12 text-center">
      <p className="font-medium">{searching ? CUSTOMER_TEXTS.noMatch : CUSTOMER_TEXTS.empty}</p>
      {!searching && canWrite ? <p className="text-sm text-muted-foreground">{CUSTOMER_TEXTS.emptyHint}</p> : null}
    </Card>
  );
}

function countText(shown: number, total: number, search: string): string {
  const noun = total === 1 ? 'customer' : 'customers';
  const matching = search ? ` matching "${search}"` : '';
  return shown < total ? `Showing ${shown} of ${total} ${noun}${matching}` : `${total} ${noun}${matching}`;
}

/**
 * The customers list (spec §2 "Customers list"): server-side search as the user types
 * (kept in the address as ?q=), newest first, a page at a time, with the add/edit modal
 * and the delete confirmation. Actions the user's permissions do not allow are hidden.
 */
export function CustomersScreen({
  instance,
  paths,
  permissions,
}: {
  /** The instance's subdomain slug (the API path names it). */
  instance: string;
  paths: CustomerPaths;
  permissions: CustomerPermissions;
}) {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlSearch = searchParams.get('q') ?? '';
  const [searchText, setSearchText] = useState(urlSearch);
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [dialog, setDialog] = useState<CustomerDialogTarget | null>(null);
  const [toDelete, setToDelete] = useState<CustomerToDelete | null>(null);

  // The address follows the search, without a history entry per keystroke.
  useEffect(() => {
    if (search === urlSearch) return;
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (search) next.set('q', search);
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  }, [search, urlSearch, setSearchParams]);

  const customers = useCustomers(instance, { q: search });
  const items = customers.data?.pages.flatMap((page) => page.items) ?? [];
  const total = customers.data?.pages[0]?.total ?? 0;
  const showingSearch = customers.isPlaceholderData ? '' : search;
  const searching = Boolean(customers.data && search);

  const handleEdit = (customer: CustomerView) => setDialog({ mode: 'edit', id: customer.id, name: customerDisplayName(customer) });
  const handleDelete = (customer: CustomerView) =>
    setToDelete({ id: customer.id, displayName: customerDisplayName(customer), number: customer.number });

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Customers</h1>
          <p className="text-muted-foreground">Manage your customer database.</p>
        </div>
        {permissions.canWrite ? (
          <Button onClick={() => setDialog({ mode: 'create' })} className="self-start sm:self-auto">
            <PlusIcon />
            Add Customer
          </Button>
        ) : null}
      </div>

      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="relative w-full sm:max-w-sm">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
          <label htmlFor="customer-search" className="sr-only">
            Search customers
          </label>
          <Input
            id="customer-search"
            type="search"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && searchText) {
                event.preventDefault();
                setSearchText('');
              }
            }}
            placeholder="Search customers..."
            title="Search by name, phone, email, address or vehicle"
            autoComplete="off"
            className="pr-9 pl-9 [&::-webkit-search-cancel-button]:hidden"
            maxLength={200}
          />
          {searchText ? (
            <button
              type="button"
              onClick={() => {
                setSearchText('');
                document.getElementById('customer-search')?.focus();
              }}
              className="absolute top-1/2 right-1.5 -translate-y-1/2 rounded-md p-1.5 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <XIcon className="size-4" />
              <span className="sr-only">Clear search</span>
            </button>
          ) : null}
        </div>
        <div className="flex min-h-6 items-center gap-3 text-sm text-muted-foreground" aria-live="polite">
          {customers.isFetching && !customers.isFetchingNextPage && customers.data ? (
            <Spinner size="sm" label="Searching..." hideLabel />
          ) : null}
          {customers.data && total > 0 ? <span data-testid="customer-count">{countText(items.length, total, showingSearch)}</span> : null}
        </div>
      </div>

      {customers.isPending ? <Spinner label="Loading customers..." /> : null}

      {customers.isError && !customers.isFetchNextPageError ? (
        <div className="flex flex-wrap items-center gap-3">
          <Alert className="flex-1">Error loading customers: {loadErrorMessage(customers.error)}</Alert>
          <Button variant="outline" onClick={() => void customers.refetch()} disabled={customers.isFetching}>
            Try again
          </Button>
        </div>
      ) : null}

      {customers.data && items.length === 0 ? <EmptyState searching={searching} canWrite={permissions.canWrite} /> : null}

      {items.length > 0 ? (
        <ul
          aria-label="Customers"
          className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${customers.isPlaceholderData ? 'opacity-60 transition-opacity' : ''}`}
        >
          {items.map((customer) => (
            <li key={customer.id}>
              <CustomerCard
                customer={customer}
                detailPath={paths.detail(customer.id)}
                onEdit={permissions.canWrite ? () => handleEdit(customer) : undefined}
                onDelete={permissions.canDelete ? () => handleDelete(customer) : undefined}
              />
            </li>
          ))}
        </ul>
      ) : null}

      {customers.isFetchNextPageError ? <Alert>Error loading customers: {loadErrorMessage(customers.error)}</Alert> : null}

      {customers.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => void customers.fetchNextPage()} disabled={customers.isFetchingNextPage}>
            {customers.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      ) : null}

      <CustomerFormDialog instance={instance} target={dialog} onClose={() => setDialog(null)} />
      <DeleteCustomerDialog instance={instance} customer={toDelete} onClose={() => setToDelete(null)} />
    </div>
  );
}
