import { BOARD_STAGES, CANCELED_STAGE, formatQuote, type JobSort, type JobView, type Stage, STAGES } from '@crm/projections/pipeline';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { boardSummaryQueryKey, useBoardSummary } from '../../api/get-board-summary';
import { jobsQueryOptions } from '../../api/get-jobs';
import { useChangeJobStage } from '../../api/change-job-stage';
import { STAGE_DOTS } from '../../constants/stage-styles';
import { jobLabel } from '../../utils/entry-title';
import { pipelineErrorText } from '../../utils/list-texts';
import { BOARD_KEYS_HINT_ID, BoardCard } from './board-card';

export const MOVE_FAILED_TITLE = 'Could not move the job';

/** Which columns show: a chosen stage alone; otherwise the board's eight, and Canceled only when asked for. */
export function boardColumns(stage: Stage | null, showCanceled: boolean): Stage[] {
  if (stage) return [stage];
  return showCanceled ? [...BOARD_STAGES, CANCELED_STAGE] : [...BOARD_STAGES];
}

/**
 * The stage board: one column per stage with its count and quote total, cards that can be
 * dragged (or moved with Alt+arrows or their menu) to another stage. A move shows at once
 * and is saved as a stage change; a refusal puts the card back and a toast says why. The
 * search and sort are the list's; each column reads its own pages.
 */
export function PipelineBoard({
  instance,
  search,
  sort,
  stage,
  showCanceled,
  canWrite,
  onEdit,
}: {
  instance: string;
  search: string;
  sort: JobSort;
  stage: Stage | null;
  showCanceled: boolean;
  canWrite: boolean;
  onEdit: (job: JobView) => void;
}) {
  const columns = boardColumns(stage, showCanceled);
  // One query per stage, always nine in the same order (the hooks' rule); hidden ones stay off.
  const queries = STAGES.map((column) =>
    useInfiniteQuery({
      ...jobsQueryOptions(instance, { q: search, sort, stage: column, canceled: 'hide' }),
      enabled: columns.includes(column),
    }),
  );
  const summary = useBoardSummary(instance, search);
  const changeStage = useChangeJobStage(instance);
  const queryClient = useQueryClient();
  /** Moves on their way to the server: the card shows in its new column until the answer. */
  const [moving, setMoving] = useState<ReadonlyMap<string, Stage>>(new Map());
  const [dragging, setDragging] = useState<JobView | null>(null);
  const [over, setOver] = useState<Stage | null>(null);
  const [focusJob, setFocusJob] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  // Every loaded job once, in its current column: a moved job may sit in two columns' pages until they are read again.
  // The column it left may answer before the one it went to, so for a moment no page holds it:
  // a job still on its way keeps its last known card, or the card (and the focus on it) would
  // vanish and come back as a new element.
  const lastKnown = useRef(new Map<string, JobView>());
  const placed = useMemo(() => {
    const seen = new Map<string, JobView>();
    for (const query of queries)
      for (const page of query.data?.pages ?? []) for (const job of page.items) if (!seen.has(job.id)) seen.set(job.id, job);
    for (const id of moving.keys()) {
      const known = lastKnown.current.get(id);
      if (!seen.has(id) && known) seen.set(id, known);
    }
    lastKnown.current = seen;
    const byStage = new Map<Stage, JobView[]>(STAGES.map((s) => [s, []]));
    for (const job of seen.values()) byStage.get(moving.get(job.id) ?? job.stage)!.push(job);
    return byStage;
    // The queries' data is what matters; the array itself is new every render.
  }, [moving, ...queries.map((query) => query.data)]);

  const heads = useMemo(() => {
    const result = new Map(STAGES.map((s) => [s, { count: 0, quoteTotal: 0 }]));
    for (const row of summary.data?.stages ?? []) result.set(row.stage, { count: row.count, quoteTotal: row.quoteTotal });
    // The moves not yet answered count where they are going.
    for (const [jobId, to] of moving) {
      const job = [...placed.values()].flat().find((j) => j.id === jobId);
      if (!job || job.stage === to) continue;
      const quote = Number(job.quote) || 0;
      const from = result.get(job.stage)!;
      const into = result.get(to)!;
      result.set(job.stage, { count: Math.max(0, from.count - 1), quoteTotal: Math.max(0, from.quoteTotal - quote) });
      result.set(to, { count: into.count + 1, quoteTotal: into.quoteTotal + quote });
    }
    return result;
  }, [summary.data, moving, placed]);

  const handleMove = useCallback(
    (job: JobView, to: Stage, how: 'keyboard' | 'menu' | 'drag') => {
      if ((moving.get(job.id) ?? job.stage) === to) return;
      const label = jobLabel(job);
      setMoving((current) => new Map(current).set(job.id, to));
      if (how === 'keyboard') setFocusJob(job.id);
      setAnnouncement(`Moving ${label} to ${to}`);
      changeStage
        .mutateAsync({ jobId: job.id, stage: to })
        .then(() => setAnnouncement(`${label} moved to ${to}`))
        .catch((error: unknown) => {
          setAnnouncement(`${label} stays in ${job.stage}`);
          if (how === 'keyboard') setFocusJob(job.id);
          toast({
            title: MOVE_FAILED_TITLE,
            description: `${label}: ${errorMessage(error, 'The stage was not changed')}`,
            variant: 'destructive',
          });
        })
        .finally(() => {
          // A later move of the same card may be on its way: it keeps its own entry.
          setMoving((current) => {
            if (current.get(job.id) !== to) return current;
            const next = new Map(current);
            next.delete(job.id);
            return next;
          });
          void queryClient.invalidateQueries({ queryKey: boardSummaryQueryKey(instance) });
        });
    },
    [changeStage, moving, queryClient, instance],
  );

  const handleDrop = (event: DragEvent, to: Stage) => {
    event.preventDefault();
    setOver(null);
    if (dragging) handleMove(dragging, to, 'drag');
    setDragging(null);
  };

  // A card moved with the keys is drawn anew in its new column (and again when the answer
  // comes back): focus follows it there until the user puts focus somewhere else. A layout
  // effect, so no key press can arrive between the redraw and the focus.
  useLayoutEffect(() => {
    if (!focusJob) return;
    const button = document.querySelector<HTMLButtonElement>(`[data-job-id="${focusJob}"] button.board-open`);
    const active = document.activeElement;
    if (button && active !== button && (active === null || active === document.body)) button.focus();
  });
  useEffect(() => {
    if (!focusJob) return;
    const handleFocusIn = (event: FocusEvent) => {
      if (!(event.target instanceof Element) || !event.target.closest(`[data-job-id="${focusJob}"]`)) setFocusJob(null);
    };
    document.addEventListener('focusin', handleFocusIn);
    return () => document.removeEventListener('focusin', handleFocusIn);
  }, [focusJob]);
  const handleDragEnd = useCallback(() => {
    setDragging(null);
    setOver(null);
  }, []);

  const failed = queries.find((query, i) => columns.includes(STAGES[i]!) && query.isError && !query.data);

  return (
    // min-w-0: a grid item would otherwise grow to the board's full width instead of scrolling it.
    <div className="grid min-w-0 gap-3">
      <p id={BOARD_KEYS_HINT_ID} className="text-xs text-muted-foreground">
        {canWrite ? (
          <>
            {/* Phones move cards with the menu; dragging would fight the scrolling. */}
            <span className="sm:hidden">Move a card with its ⋯ menu; tap it to open the entry.</span>
            <span className="hidden sm:inline">
              Drag a card to another stage, or focus it and press Alt+← or Alt+→; its ⋯ menu offers every stage.
            </span>
          </>
        ) : (
          'Cards open their entry; moving them takes write permission.'
        )}
      </p>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {failed ? <Alert>{pipelineErrorText(failed.error)}</Alert> : null}
      <div
        role="region"
        aria-label="Stage board"
        // The board scrolls sideways; on a phone a column nearly fills the screen and snaps.
        className="-mx-4 flex min-w-0 snap-x snap-mandatory scroll-px-4 gap-3 overflow-x-auto px-4 pb-3 sm:mx-0 sm:snap-none sm:scroll-px-0 sm:px-0"
      >
        {columns.map((column) => {
          const query = queries[STAGES.indexOf(column)]!;
          const jobs = placed.get(column) ?? [];
          const head = heads.get(column)!;
          const headingId = `board-column-${column.replace(/\s+/g, '-').toLowerCase()}`;
          return (
            <section
              key={column}
              aria-labelledby={headingId}
              data-stage={column}
              onDragOver={(event) => {
                if (!dragging) return;
                event.preventDefault();
                event.dataTransfer.dropEffect = 'move';
                if (over !== column) setOver(column);
              }}
              onDragLeave={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null))
                  setOver((current) => (current === column ? null : current));
              }}
              onDrop={(event) => handleDrop(event, column)}
              className={cn(
                'flex w-[82vw] shrink-0 snap-start flex-col gap-2 rounded-xl border bg-muted/40 p-2 transition-colors sm:w-64',
                over === column && dragging && dragging.stage !== column && 'border-primary bg-primary/10 ring-2 ring-primary/40',
              )}
            >
              <header className="flex items-center justify-between gap-2 px-1 pt-1">
                <h2 id={headingId} className="flex min-w-0 items-center gap-2 text-sm font-semibold">
                  <span aria-hidden="true" className={cn('size-2.5 shrink-0 rounded-full', STAGE_DOTS[column])} />
                  <span className="truncate">{column}</span>
                  <span
                    className="rounded-full bg-background px-2 py-0.5 text-xs font-medium tabular-nums text-muted-foreground"
                    aria-label={`${head.count} jobs`}
                  >
                    {head.count}
                  </span>
                </h2>
                <span
                  className="text-xs font-medium tabular-nums text-muted-foreground"
                  aria-label={`Quotes total ${formatQuote(head.quoteTotal)}`}
                >
                  {formatQuote(head.quoteTotal)}
                </span>
              </header>
              {query.isPending && query.fetchStatus !== 'idle' ? <Spinner label={`Loading ${column}...`} className="py-6" /> : null}
              {jobs.length > 0 ? (
                <ul className="grid gap-2" aria-label={`${column} jobs`}>
                  {jobs.map((job) => (
                    <BoardCard
                      key={job.id}
                      instance={instance}
                      job={job}
                      stage={column}
                      canWrite={canWrite}
                      pending={moving.has(job.id)}
                      onEdit={onEdit}
                      onMove={handleMove}
                      onDragStart={setDragging}
                      onDragEnd={handleDragEnd}
                    />
                  ))}
                </ul>
              ) : !query.isPending ? (
                <p className="rounded-lg border border-dashed px-3 py-6 text-center text-xs text-muted-foreground">
                  {canWrite ? 'No jobs here. Drop one to move it.' : 'No jobs here.'}
                </p>
              ) : null}
              {query.hasNextPage ? (
                <Button variant="ghost" size="sm" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
                  {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              ) : null}
            </section>
          );
        })}
      </div>
    </div>
  );
}
