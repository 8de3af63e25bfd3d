import type { UserChoice } from '@crm/projections/identity';
import { type ReactNode, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { DownloadIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { auditCsvUrl, useAuditLog } from '../api/get-audit-log';
import {
  type AuditFilters,
  auditFiltersFromParams,
  auditFiltersToParams,
  EMPTY_AUDIT_FILTERS,
  isBackwardsRange,
} from '../utils/audit-filters';
import { AuditFiltersBar } from './audit-filters-bar';
import { AuditTable } from './audit-table';

const SEARCH_DEBOUNCE_MS = 300;
export const BACKWARDS_RANGE_MESSAGE = '"To" must be on or after "From"';

function loadErrorText(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return 'Not authenticated';
  if (error instanceof ApiError && error.status === 403) return 'Only administrators can see the audit log.';
  return `Error: ${errorMessage(error, 'Failed to load the audit log')}`;
}

/**
 * The admins' audit log: the instance's timeline, filtered by entity,
 * user, dates and text, a page at a time, and the same selection as a CSV download.
 */
export function AuditScreen({ instance, users, backLink }: { instance: string; users: UserChoice[]; backLink?: ReactNode }) {
  // The filters are in the address too, so a reload or a shared link shows the same selection.
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<AuditFilters>(() => auditFiltersFromParams(params));
  // The filters last sent: a backwards date range is not, so the last good list stays while it is fixed.
  const [valid, setValid] = useState<AuditFilters>(() => (isBackwardsRange(filters) ? EMPTY_AUDIT_FILTERS : filters));
  const q = useDebouncedValue(valid.q, SEARCH_DEBOUNCE_MS);
  const applied = useMemo(() => ({ ...valid, q }), [valid, q]);
  const backwards = isBackwardsRange(filters);

  const handleChange = (next: AuditFilters) => {
    setFilters(next);
    if (!isBackwardsRange(next)) setValid(next);
    setParams(auditFiltersToParams(next, params), { replace: true });
  };

  const log = useAuditLog(instance, applied);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <div className="grid gap-6">
      {backLink}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Audit Log</h1>
          <p className="text-muted-foreground">Everything that happened in this CRM, who did it and what changed, newest first.</p>
        </div>
        <a
          href={auditCsvUrl(instance, applied)}
          download
          className={buttonVariants({ variant: 'outline', className: 'self-start sm:self-auto' })}
        >
          <DownloadIcon />
          Download CSV
        </a>
      </div>

      <AuditFiltersBar
        filters={filters}
        users={users}
        onChange={handleChange}
        rangeError={backwards ? BACKWARDS_RANGE_MESSAGE : undefined}
      />

      <section aria-label="Audit entries" aria-busy={log.isFetching || undefined} className="grid gap-4">
        {log.isPending ? (
          <Spinner label="Loading audit log..." className="py-8" />
        ) : log.isError && !log.data ? (
          <Alert>{loadErrorText(log.error)}</Alert>
        ) : entries.length === 0 ? (
          <p className="rounded-xl border border-dashed px-4 py-12 text-center text-muted-foreground">No entries match these filters.</p>
        ) : (
          <AuditTable instance={instance} entries={entries} />
        )}
        {log.data ? (
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
            <p className="text-sm text-muted-foreground" aria-live="polite">
              Showing {entries.length} {entries.length === 1 ? 'entry' : 'entries'}
            </p>
            {log.hasNextPage ? (
              <Button variant="outline" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
                {log.isFetchingNextPage ? 'Loading...' : 'Load more'}
              </Button>
            ) : null}
          </div>
        ) : null}
        {log.isError && log.data ? <Alert>{loadErrorText(log.error)}</Alert> : null}
      </section>
    </div>
  );
}
