import type { JobView } from '@crm/projections/pipeline';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LockIcon, PlusIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { useJobs } from '../api/get-jobs';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useMediaQuery } from '@/lib/use-media-query';
import { DeleteEntryDialog } from './delete-entry-dialog';
import { EntryDialog, type EntryDialogTarget } from './entry-dialog';
import { PipelineCards } from './pipeline-cards';
import { PipelineTable } from './pipeline-table';
import type { PipelinePermissions } from '../types/pipeline-permissions';
import { emptyText, pipelineErrorText, showingText } from '../utils/list-texts';
import { PipelineToolbar } from './pipeline-toolbar';
import { PipelineBoard } from './board/pipeline-board';
import { filtersFromParams, pipelineParams, type PipelineFilters, type PipelineView, viewFromParams } from '../utils/pipeline-url';
import { cn } from '@/lib/cn';
import { CustomerFilterNote } from './customer-filter-note';

export const SEARCH_DEBOUNCE_MS = 300;

const VIEW_LABELS: Record<PipelineView, string> = { table: 'Table', cards: 'Cards', board: 'Board' };

/**
 * The pipeline (the Maven extras): search, sorts, stage filter
 * and the canceled toggle, all on the server, a page at a time; as a table, cards or a stage
 * board, which share the filters. Filters and view live in the address (search params).
 */
export function PipelineScreen({
  instance,
  currentUserName,
  permissions,
}: {
  instance: string;
  currentUserName: string;
  permissions: PipelinePermissions;
}) {
  const [params, setParams] = useSearchParams();
  const urlFilters = useMemo(() => filtersFromParams(params), [params]);
  // The box keeps what is typed; the address gets the search once typing pauses.
  const [searchText, setSearchText] = useState(urlFilters.search);
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const written = useRef(urlFilters.search);
  useEffect(() => {
    if (search === written.current) return;
    written.current = search;
    setParams((current) => pipelineParams(current, { ...filtersFromParams(current), search }, viewFromParams(current)), { replace: true });
  }, [search, setParams]);
  useEffect(() => {
    // A search changed in the address from outside (Back, a link): the box follows.
    if (urlFilters.search === written.current) return;
    written.current = urlFilters.search;
    setSearchText(urlFilters.search);
  }, [urlFilters.search]);
  const filters: PipelineFilters = { ...urlFilters, search: searchText };
  const handleFiltersChange = (next: PipelineFilters) => {
    if (next.search !== searchText) setSearchText(next.search);
    const { search: _typed, ...rest } = next;
    const { search: _shown, ...before } = filters;
    if (JSON.stringify(rest) !== JSON.stringify(before))
      setParams((current) => pipelineParams(current, { ...next, search: filtersFromParams(current).search }, viewFromParams(current)), {
        replace: true,
      });
  };

  // Arriving with ?new=1 (the dashboard's Create Pipeline Entry) opens the new entry dialog; the
  // flag then leaves the address, so a reload or Back does not open it again.
  const [newDialog, setNewDialog] = useState<EntryDialogTarget | null>(() =>
    permissions.canWrite && params.get('new') === '1' ? { kind: 'new' } : null,
  );
  // An open job is in the address (?job={id}): a link to a job opens it, and a reload keeps it open.
  const openJobId = params.get('job');
  const dialog: EntryDialogTarget | null = openJobId ? { kind: 'edit', jobId: openJobId } : newDialog;
  const setParamsRef = useRef(setParams);
  setParamsRef.current = setParams;
  const setOpenJob = useCallback((jobId: string | null) => {
    setParamsRef.current(
      (current) => {
        const next = new URLSearchParams(current);
        if (jobId) next.set('job', jobId);
        else next.delete('job');
        return next;
      },
      { replace: true },
    );
  }, []);
  const setDialog = (target: EntryDialogTarget | null) => {
    if (target?.kind === 'edit') setOpenJob(target.jobId);
    else {
      setNewDialog(target);
      if (openJobId) setOpenJob(null);
    }
  };
  const customerId = params.get('customer');
  const clearCustomer = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('customer');
        return next;
      },
      { replace: true },
    );
  useEffect(() => {
    if (!params.has('new')) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('new');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);
  const [deleting, setDeleting] = useState<JobView | null>(null);
  // One layout is mounted, not two with one hidden: every row costs. The table needs the width.
  const wide = useMediaQuery('(min-width: 1024px)');
  const chosenView = viewFromParams(params);
  const view: PipelineView = chosenView === 'board' ? 'board' : chosenView === 'cards' || !wide ? 'cards' : 'table';
  const handleViewChange = (next: PipelineView) => setParams((current) => pipelineParams(current, filtersFromParams(current), next));

  const jobs = useJobs(
    instance,
    {
      q: search,
      sort: filters.sort,
      stage: filters.stage,
      canceled: filters.showCanceled ? 'only' : 'hide',
      customerId,
    },
    view !== 'board',
  );
  const items = useMemo(() => jobs.data?.pages.flatMap((page) => page.items) ?? [], [jobs.data]);
  const total = jobs.data?.pages[0]?.total ?? 0;

  // Stable, so typing in the search box does not re-render every row of the list.
  const handleEdit = useCallback((job: JobView) => setOpenJob(job.id), [setOpenJob]);

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Pipeline</h1>
          <p className="text-muted-foreground">Manage your parts quotes and customer pipeline.</p>
        </div>
        <div className="flex flex-wrap items-center gap-2 self-start sm:self-auto">
          <div role="group" aria-label="View" className="inline-flex rounded-lg border bg-card p-0.5 shadow-sm">
            {(['table', 'cards', 'board'] as const).map((option) =>
              // The table needs a wide screen; narrow ones offer the cards instead.
              option === 'table' && !wide ? null : (
                <button
                  key={option}
                  type="button"
                  aria-pressed={view === option}
                  onClick={() => handleViewChange(option)}
                  className={cn(
                    'rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                    view === option
                      ? 'bg-primary text-primary-foreground shadow-sm'
                      : 'text-muted-foreground hover:bg-accent hover:text-foreground',
                  )}
                >
                  {VIEW_LABELS[option]}
                </button>
              ),
            )}
          </div>
          {permissions.canWrite ? (
            <Button onClick={() => setDialog({ kind: 'new' })}>
              <PlusIcon />
              Add New Entry
            </Button>
          ) : null}
        </div>
      </div>

      <PipelineToolbar filters={filters} onChange={handleFiltersChange} />
      {customerId && view !== 'board' ? <CustomerFilterNote instance={instance} customerId={customerId} onClear={clearCustomer} /> : null}

      {view === 'board' ? (
        <PipelineBoard
          instance={instance}
          search={search}
          sort={filters.sort}
          stage={filters.stage}
          showCanceled={filters.showCanceled}
          canWrite={permissions.canWrite}
          onEdit={handleEdit}
        />
      ) : (
        <section aria-label="Entries" aria-busy={jobs.isFetching || undefined} className="grid gap-4">
          {jobs.isPending ? (
            <Spinner label="Loading entries..." className="py-8" />
          ) : jobs.isError && !jobs.data ? (
            <Alert>{pipelineErrorText(jobs.error)}</Alert>
          ) : items.length === 0 ? (
            <p className="rounded-xl border border-dashed px-4 py-12 text-center text-muted-foreground">{emptyText(search)}</p>
          ) : view === 'table' ? (
            <PipelineTable instance={instance} jobs={items} permissions={permissions} onEdit={handleEdit} onDelete={setDeleting} />
          ) : (
            <PipelineCards instance={instance} jobs={items} permissions={permissions} onEdit={handleEdit} />
          )}
          {jobs.data ? (
            <div className="flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {showingText(items.length, total, search)}
              </p>
              {jobs.hasNextPage ? (
                <Button variant="outline" onClick={() => void jobs.fetchNextPage()} disabled={jobs.isFetchingNextPage}>
                  {jobs.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              ) : null}
            </div>
          ) : null}
          {jobs.isError && jobs.data ? <Alert>{pipelineErrorText(jobs.error)}</Alert> : null}
        </section>
      )}

      <p className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
        <LockIcon aria-hidden="true" className="size-3.5" />
        All customer data is encrypted and secure.
      </p>

      {dialog ? (
        <EntryDialog
          key={dialog.kind === 'edit' ? dialog.jobId : 'new'}
          instance={instance}
          target={dialog}
          currentUserName={currentUserName}
          permissions={permissions}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {deleting ? <DeleteEntryDialog instance={instance} job={deleting} open onOpenChange={(open) => !open && setDeleting(null)} /> : null}
    </div>
  );
}
