import { formatDate } from '@crm/projections/contract';
import type { ServiceRequestView } from '@crm/projections/service-requests';
import { Link, useSearchParams } from 'react-router-dom';
import { SearchBox } from '@/components/search-box';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { MailIcon, PlusIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { useAddressSearch } from '@/lib/use-address-search';
import { useMediaQuery } from '@/lib/use-media-query';
import { useServiceRequests } from '../api/get-service-requests';
import { SEARCH_DEBOUNCE_MS, SERVICE_REQUEST_TEXTS } from '../constants/service-request-texts';
import { loadErrorText, requestNumber } from '../utils/service-request-form';
import { ServiceRequestStatusBadge } from './service-request-status-badge';

export interface ServiceListPaths {
  form: string;
  detail: (id: string) => string;
}

function countText(shown: number, total: number, search: string, archived: boolean): string {
  const noun = `${archived ? 'archived ' : ''}${total === 1 ? 'request' : 'requests'}`;
  const matching = search ? ` matching "${search}"` : '';
  return shown < total ? `Showing ${shown} of ${total} ${noun}${matching}` : `${total} ${noun}${matching}`;
}

/** The public request a staff member has not acted on yet: never edited since it came in. */
const isNewPublic = (request: ServiceRequestView) => request.source === 'public' && request.status === 'open' && request.revision === 0;

/**
 * The service list (search by name, email, vehicle type, service type and notes; a
 * table on desktop, cards on phones; the total; View opens /edit-service/{id}). The search
 * runs on the server as the user types (kept in the address as ?q=), a page at a time.
 */
export function ServiceListScreen({ instance, paths, canWrite }: { instance: string; paths: ServiceListPaths; canWrite: boolean }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const archived = searchParams.get('status') === 'archived';
  const { searchText, setSearchText, search } = useAddressSearch(SEARCH_DEBOUNCE_MS);
  const wide = useMediaQuery('(min-width: 768px)');

  const setArchived = (on: boolean) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (on) next.set('status', 'archived');
        else next.delete('status');
        return next;
      },
      { replace: true },
    );

  const requests = useServiceRequests(instance, { q: search, status: archived ? 'archived' : 'active' });
  const items = requests.data?.pages.flatMap((page) => page.items) ?? [];
  const total = requests.data?.pages[0]?.total ?? 0;
  const showingSearch = requests.isPlaceholderData ? '' : search;

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{SERVICE_REQUEST_TEXTS.listTitle}</h1>
          <p className="text-muted-foreground">{SERVICE_REQUEST_TEXTS.listSubtitle}</p>
        </div>
        {canWrite ? (
          <Link to={paths.form} className={buttonVariants({ className: 'self-start sm:self-auto' })}>
            <PlusIcon />
            New Request
          </Link>
        ) : null}
      </div>

      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-wrap items-center gap-2">
          <SearchBox
            id="service-request-search"
            label="Search service requests"
            value={searchText}
            onChange={setSearchText}
            placeholder="Search requests..."
            title="Search by name, email, vehicle type, service type or notes"
            className="sm:w-80"
          />
          <Button variant={archived ? 'secondary' : 'ghost'} size="sm" aria-pressed={archived} onClick={() => setArchived(!archived)}>
            {archived ? 'Showing archived' : 'Show archived'}
          </Button>
        </div>
        <div className="flex min-h-6 items-center gap-3 text-sm text-muted-foreground" aria-live="polite">
          {requests.isFetching && !requests.isFetchingNextPage && requests.data ? (
            <Spinner size="sm" label="Searching..." hideLabel />
          ) : null}
          {requests.data && total > 0 ? (
            <span data-testid="service-request-count">{countText(items.length, total, showingSearch, archived)}</span>
          ) : null}
        </div>
      </div>

      {requests.isPending ? <Spinner label="Loading service requests..." /> : null}

      {requests.isError && !requests.isFetchNextPageError ? (
        <div className="flex flex-wrap items-center gap-3">
          <Alert className="flex-1">{loadErrorText(requests.error)}</Alert>
          <Button variant="outline" onClick={() => void requests.refetch()} disabled={requests.isFetching}>
            Try again
          </Button>
        </div>
      ) : null}

      {requests.data && items.length === 0 ? (
        <Card className="grid place-items-center gap-1 border-dashed px-6 py-12 text-center">
          <p className="font-medium">{search ? SERVICE_REQUEST_TEXTS.noMatch : SERVICE_REQUEST_TEXTS.empty}</p>
        </Card>
      ) : null}

      {items.length > 0 ? (
        <div className={cn(requests.isPlaceholderData && 'opacity-60 transition-opacity')}>
          {wide ? <RequestTable items={items} paths={paths} /> : <RequestCards items={items} paths={paths} />}
        </div>
      ) : null}

      {requests.isFetchNextPageError ? <Alert>{loadErrorText(requests.error)}</Alert> : null}

      {requests.hasNextPage ? (
        <div className="flex justify-center">
          <Button variant="outline" onClick={() => void requests.fetchNextPage()} disabled={requests.isFetchingNextPage}>
            {requests.isFetchingNextPage ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The table's columns before Actions. */
const COLUMNS = ['ID', 'Customer', 'Email', 'Vehicle', 'Service', 'Status'] as const;

function RequestTable({ items, paths }: { items: ServiceRequestView[]; paths: ServiceListPaths }) {
  const head = 'px-4 py-3 text-left text-xs font-medium tracking-wide text-muted-foreground uppercase';
  const cell = 'px-4 py-3 align-top';
  return (
    <Card className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Service requests</caption>
        <thead className="border-b">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className={head}>
                {column}
              </th>
            ))}
            <th scope="col" className={cn(head, 'text-right')}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {items.map((request) => (
            <tr key={request.id} className="hover:bg-muted/40">
              <td className={cn(cell, 'font-mono whitespace-nowrap text-muted-foreground')}>{requestNumber(request)}</td>
              <td className={cn(cell, 'font-medium')}>
                {request.customerName || <span className="text-muted-foreground">No name</span>}
                {request.scheduledDate ? (
                  <span className="block text-xs font-normal text-muted-foreground">For {formatDate(request.scheduledDate)}</span>
                ) : null}
              </td>
              <td className={cell}>
                {request.contactEmail || '—'}
                {request.contactPhone ? (
                  <span className="block whitespace-nowrap text-muted-foreground tabular-nums">{request.contactPhone}</span>
                ) : null}
              </td>
              <td className={cell}>{request.vehicleType || '—'}</td>
              <td className={cell}>{request.serviceType || '—'}</td>
              <td className={cell}>
                <ServiceRequestStatusBadge request={request} isNew={isNewPublic(request)} />
              </td>
              <td className={cn(cell, 'text-right')}>
                <Link
                  to={paths.detail(request.id)}
                  className={buttonVariants({ variant: 'outline', size: 'sm' })}
                  aria-label={`View ${requestNumber(request)} ${request.customerName}`.trim()}
                >
                  View
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}

function RequestCards({ items, paths }: { items: ServiceRequestView[]; paths: ServiceListPaths }) {
  return (
    <ul aria-label="Service requests" className="grid gap-3">
      {items.map((request) => (
        <li key={request.id}>
          <Card className="grid gap-3 p-4">
            <div className="flex items-start justify-between gap-3">
              <div className="grid min-w-0 gap-0.5">
                <span className="font-mono text-xs text-muted-foreground">{requestNumber(request)}</span>
                <span className="truncate font-semibold">{request.customerName || 'No name'}</span>
              </div>
              <ServiceRequestStatusBadge request={request} isNew={isNewPublic(request)} />
            </div>
            <dl className="grid gap-1 text-sm">
              {request.contactEmail ? (
                <div className="flex min-w-0 items-center gap-2">
                  <MailIcon className="size-4 shrink-0 text-muted-foreground" />
                  <dt className="sr-only">Email</dt>
                  <dd className="truncate">{request.contactEmail}</dd>
                </div>
              ) : null}
              <div className="flex gap-2">
                <dt className="text-muted-foreground">Vehicle:</dt>
                <dd>{request.vehicleType || '—'}</dd>
              </div>
              <div className="flex gap-2">
                <dt className="text-muted-foreground">Service:</dt>
                <dd>{request.serviceType || '—'}</dd>
              </div>
              {request.scheduledDate ? (
                <div className="flex gap-2">
                  <dt className="text-muted-foreground">Date:</dt>
                  <dd>{formatDate(request.scheduledDate)}</dd>
                </div>
              ) : null}
            </dl>
            <Link
              to={paths.detail(request.id)}
              className={buttonVariants({ variant: 'outline', size: 'sm', className: 'w-full' })}
              aria-label={`View ${requestNumber(request)} ${request.customerName}`.trim()}
            >
              View
            </Link>
          </Card>
        </li>
      ))}
    </ul>
  );
}
