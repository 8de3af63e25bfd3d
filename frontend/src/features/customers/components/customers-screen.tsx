import type { CustomerView } from '@crm/projections/customers';
import { useState } from 'react';
import { SearchBox } from '@/components/search-box';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PlusIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useAddressSearch } from '@/lib/use-address-search';
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
 * The customers list: server-side search as the user types
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
  const { searchText, setSearchText, search } = useAddressSearch(SEARCH_DEBOUNCE_MS);
  const [dialog, setDialog] = useState<CustomerDialogTarget | null>(null);
  const [toDelete, setToDelete] = useState<CustomerToDelete | null>(null);

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
        <SearchBox
          id="customer-search"
          label="Search customers"
          value={searchText}
          onChange={setSearchText}
          placeholder="Search customers..."
          title="Search by name, phone, email, address or vehicle"
          className="sm:max-w-sm"
        />
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
