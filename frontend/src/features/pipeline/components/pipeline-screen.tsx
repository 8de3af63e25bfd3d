import type { JobView } from '@crm/projections/pipeline';
import { useCallback, useMemo, useState } from 'react';
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
import { type PipelineFilters, PipelineToolbar } from './pipeline-toolbar';

export const SEARCH_DEBOUNCE_MS = 300;

const INITIAL_FILTERS: PipelineFilters = { search: '', sort: 'stage', stage: null, showCanceled: false };

/**
 * The pipeline (spec §2 and the Maven extras, DECISIONS.md §1): search, sorts, stage filter
 * and the canceled toggle, all on the server, a page at a time.
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
  const [filters, setFilters] = useState<PipelineFilters>(INITIAL_FILTERS);
  const search = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS);
  const [dialog, setDialog] = useState<EntryDialogTarget | null>(null);
  const [deleting, setDeleting] = useState<JobView | null>(null);

  const jobs = useJobs(instance, {
    q: search,
    sort: filters.sort,
    stage: filters.stage,
    canceled: filters.showCanceled ? 'only' : 'hide',
  });
  const items = useMemo(() => jobs.data?.pages.flatMap((page) => page.items) ?? [], [jobs.data]);
  const total = jobs.data?.pages[0]?.total ?? 0;

  // Stable, so typing in the search box does not re-render every row of the list.
  const handleEdit = useCallback((job: JobView) => setDialog({ kind: 'edit', jobId: job.id }), []);
  // One layout is mounted, not two with one hidden: every row costs.
  const wide = useMediaQuery('(min-width: 1024px)');

  return (
    <div className="grid gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Pipeline</h1>
          <p className="text-muted-foreground">Manage your parts quotes and customer pipeline.</p>
        </div>
        {permissions.canWrite ? (
          <Button onClick={() => setDialog({ kind: 'new' })} className="self-start sm:self-auto">
            <PlusIcon />
            Add New Entry
          </Button>
        ) : null}
      </div>

      <PipelineToolbar filters={filters} onChange={setFilters} />

      <section aria-label="Entries" aria-busy={jobs.isFetching || undefined} className="grid gap-4">
        {jobs.isPending ? (
          <Spinner label="Loading entries..." className="py-8" />
        ) : jobs.isError && !jobs.data ? (
          <Alert>{pipelineErrorText(jobs.error)}</Alert>
        ) : items.length === 0 ? (
          <p className="rounded-xl border border-dashed px-4 py-12 text-center text-muted-foreground">{emptyText(search)}</p>
        ) : wide ? (
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
