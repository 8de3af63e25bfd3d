import { type JobDetail, LINE_KINDS, type LineKind, type LineView, parseMoney } from '@crm/projections/contract';
import { type FocusEvent, type KeyboardEvent, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { PlusIcon } from '@/components/ui/icons';
import { useAddJobLine } from '../../api/add-job-line';
import { useChangeJobLine } from '../../api/change-job-line';
import type { LoadedJob } from '../../api/get-job';
import { useRemoveJobLine } from '../../api/remove-job-line';
import { useReorderJobLines } from '../../api/reorder-job-lines';
import {
  draftFromLine,
  draftTotals,
  emptyLineDraft,
  LINE_KIND_LABELS,
  lineChanges,
  linePayload,
  lineProblems,
  shopRateNote,
  type LineDraft,
  type ShopRates,
} from '../../utils/line-draft';
import { lineFieldId, LineRow } from './line-row';
import { TotalsSummary } from './totals-summary';
import { firstProblemField, FIRST_FIELD, focusIfLeft, linePayloadHasValues } from './line-focus';
import { useLineCommandQueue } from './use-line-command-queue';

type Problems = Partial<Record<string, string>>;

/**
 * The job's lines, edited in place in the job dialog: each line is saved on its own (a
 * command with its own event) when the cursor leaves it or Enter is pressed, and Enter then
 * starts a new line of the same kind. The totals follow every key typed, computed by the
 * same function the server and the documents use. Commands go one after another, each with
 * the ETag the previous one answered, so quick edits never collide with each other.
 */
export function LinesEditor({
  instance,
  loaded,
  detail,
  readOnly,
  rates,
  technicians,
  onSaved,
  onBusyChange,
}: {
  instance: string;
  loaded: LoadedJob;
  detail: JobDetail;
  readOnly: boolean;
  /** The shop's rates; null while unknown (the totals shown are then the server's). */
  rates: ShopRates | null;
  technicians: readonly string[];
  /** After a command: the job it answered, and the ETag the command was sent with. */
  onSaved: (saved: LoadedJob, sentWith: string) => void;
  /** Told when lines start and stop being saved (the estimate and invoice wait for them). */
  onBusyChange?: (busy: boolean) => void;
}) {
  const [edits, setEdits] = useState<Record<string, LineDraft>>({});
  const [added, setAdded] = useState<LineDraft[]>([]);
  const [problems, setProblems] = useState<Record<string, Problems>>({});
  const { run, saving, error, latest } = useLineCommandQueue(loaded, onSaved);
  const busy = saving.size > 0;
  useEffect(() => onBusyChange?.(busy), [busy, onBusyChange]);
  const addLine = useAddJobLine(instance);
  const changeLine = useChangeJobLine(instance);
  const removeLine = useRemoveJobLine(instance);
  const reorderLines = useReorderJobLines(instance);

  /** Lines being saved: Enter and then leaving the line must not save it twice. */
  const inFlight = useRef(new Set<string>());
  /** New lines being added, each with the ids of the lines saved when its add was sent. */
  const adding = useRef(new Map<string, ReadonlySet<string>>());

  const saved = detail.lines;
  const savedById = useMemo(() => new Map(saved.map((line) => [line.id, line])), [saved]);
  // A new line whose add the job already shows (a live update can bring it before the command's
  // own answer) is shown once, as saved: both on screen at once, typing went into the draft and was lost.
  const drafts = useMemo(() => {
    const shown = added.filter((draft) => {
      const before = adding.current.get(draft.key);
      return !before || saved.every((line) => before.has(line.id));
    });
    return [...saved.map((line) => edits[line.id] ?? draftFromLine(line)), ...shown];
    // `saving` changes when an add starts and ends, which is when `adding` does.
  }, [saved, edits, added, saving]);
  const declined = useMemo(() => new Set(saved.filter((line) => line.status === 'declined').map((line) => line.id)), [saved]);
  const preview = rates ? draftTotals(drafts, declined, rates) : null;

  const target = () => ({ jobId: detail.id, etag: latest.current.etag });

  const update = (draft: LineDraft, patch: Partial<LineDraft>) => {
    const next = { ...draft, ...patch };
    if (draft.id) setEdits((current) => ({ ...current, [draft.key]: next }));
    else setAdded((current) => current.map((line) => (line.key === draft.key ? next : line)));
    if (problems[draft.key]) setProblems(({ [draft.key]: _dropped, ...rest }) => rest);
  };

  /** Saves a line if it changed (once at a time); false when the server would refuse it (its problems are shown). */
  const commit = async (draft: LineDraft): Promise<boolean> => {
    if (inFlight.current.has(draft.key)) return true;
    inFlight.current.add(draft.key);
    try {
      return await save(draft);
    } finally {
      inFlight.current.delete(draft.key);
    }
  };

  const save = async (draft: LineDraft): Promise<boolean> => {
    const savedLine = draft.id ? savedById.get(draft.id) : undefined;
    if (draft.id && !savedLine) return true;
    const changes = savedLine ? lineChanges(draft, savedLine) : null;
    if (savedLine && !changes) {
      setEdits(({ [draft.key]: _unchanged, ...rest }) => rest);
      return true;
    }
    const found = lineProblems(draft);
    if (found) {
      setProblems((current) => ({ ...current, [draft.key]: found }));
      return false;
    }
    if (savedLine && changes) {
      return await run(
        [draft.key],
        'Save the line',
        (etag) => changeLine.mutateAsync({ ...target(), etag, lineId: savedLine.id, changes }),
        () => setEdits(({ [draft.key]: _saved, ...rest }) => rest),
      );
    }
    adding.current.set(draft.key, new Set(saved.map((line) => line.id)));
    try {
      return await run(
        [draft.key],
        'Add the line',
        (etag) => addLine.mutateAsync({ ...target(), etag, line: linePayload(draft) }),
        () => setAdded((current) => current.filter((line) => line.key !== draft.key)),
      );
    } finally {
      adding.current.delete(draft.key);
    }
  };

  /**
   * Where the cursor goes once the box is drawn: `leftIn` as in focusIfLeft. It is applied after
   * the render that draws the box, not on a timer: on a busy machine a frame can come before
   * React has drawn a line just added, and the cursor was then lost.
   */
  const [pendingFocus, setPendingFocus] = useState<{ id: string; leftIn?: Element } | null>(null);
  const focusLater = (key: string, field = FIRST_FIELD, leftIn?: Element) => setPendingFocus({ id: lineFieldId(key, field), leftIn });
  useLayoutEffect(() => {
    if (!pendingFocus) return;
    // Set in the same render as the line it names: a box not drawn now never will be (the add gave way).
    setPendingFocus(null);
    focusIfLeft(pendingFocus.id, pendingFocus.leftIn);
  }, [pendingFocus]);

  /**
   * A new, empty line of this kind. `afterEnterIn` (the box Enter was pressed in) marks the
   * line Enter starts once the line before it is saved: a save takes a moment, and what the
   * person did meanwhile wins, so it neither displaces a line they added by hand nor takes the
   * cursor from where they put it.
   */
  const handleAdd = (kind: LineKind, afterEnterIn?: Element) => {
    const draft = emptyLineDraft(kind);
    setAdded((current) => {
      if (afterEnterIn && current.some((line) => !linePayloadHasValues(line))) return current;
      // A new line nothing was typed into gives way to the next one.
      return [...current.filter(linePayloadHasValues), draft];
    });
    focusLater(draft.key, FIRST_FIELD, afterEnterIn);
  };

  const handleMove = (draft: LineDraft, by: -1 | 1) => {
    const lineId = draft.id;
    if (!lineId) return;
    const focusedElement = document.activeElement ?? undefined;
    const focused = focusedElement?.id;
    // The order is read when the move's turn comes, from the job the command before it answered:
    // Alt+↓ pressed while the line just added is still being saved moves past that line too.
    const move = (etag: string) => {
      const ids = (latest.current.detail?.lines ?? saved).map((line) => line.id);
      const from = ids.indexOf(lineId);
      const to = from + by;
      if (from < 0 || to < 0 || to >= ids.length) return Promise.resolve(null);
      [ids[from], ids[to]] = [ids[to]!, ids[from]!];
      return reorderLines.mutateAsync({ ...target(), etag, lineIds: ids });
    };
    void run([draft.key], 'Move the line', move).then(() => {
      // Moving the row drops the cursor; it goes back unless the person put it elsewhere meanwhile.
      if (focused) setPendingFocus({ id: focused, leftIn: focusedElement });
    });
  };

  const handleRemove = (draft: LineDraft) => {
    if (!draft.id) {
      setAdded((current) => current.filter((line) => line.key !== draft.key));
      return;
    }
    const lineId = draft.id;
    void run(
      [draft.key],
      'Remove the line',
      (etag) => removeLine.mutateAsync({ ...target(), etag, lineId }),
      () => setEdits(({ [draft.key]: _removed, ...rest }) => rest),
    );
  };

  const handleRowKeyDown = (draft: LineDraft) => (event: KeyboardEvent<HTMLElement>) => {
    if (readOnly || event.target instanceof HTMLButtonElement) return;
    if (event.key === 'Enter' && !event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      // Inside the entry form Enter would save the whole entry: here it saves this line and starts the next.
      event.preventDefault();
      const box = event.target as Element;
      void commit(draft).then((ok) => {
        if (ok) handleAdd(draft.kind, box);
        else focusLater(draft.key, firstProblemField(draft));
      });
      return;
    }
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      event.preventDefault();
      handleMove(draft, event.key === 'ArrowUp' ? -1 : 1);
      return;
    }
  };

  /** Leaving a line (to anywhere outside it) saves it. */
  const handleRowBlur = (draft: LineDraft) => (event: FocusEvent<HTMLLIElement>) => {
    if (readOnly || event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    if (!draft.id && !linePayloadHasValues(draft)) return;
    void commit(draft);
  };

  const discountTargets = saved
    .filter((line) => line.kind !== 'discount')
    .map((line, i) => ({ id: line.id, label: line.description || `${LINE_KIND_LABELS[line.kind]} line ${i + 1}` }));

  return (
    <section aria-labelledby="lines-heading" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="lines-heading" className="text-base font-semibold">
          Lines
        </h3>
        {readOnly ? null : (
          <div className="flex flex-wrap gap-1.5" role="group" aria-label="Add a line">
            {LINE_KINDS.map((kind) => (
              <Button key={kind} variant="outline" size="sm" onClick={() => handleAdd(kind)}>
                <PlusIcon />
                {LINE_KIND_LABELS[kind]}
              </Button>
            ))}
          </div>
        )}
      </div>
      {drafts.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No lines yet: the job keeps its single quote.{readOnly ? '' : ' Add parts, labor, fees or discounts to itemize it.'}
        </p>
      ) : (
        <ol className="grid gap-2" aria-label="Lines">
          {drafts.map((draft, index) => {
            const savedLine: LineView | undefined = draft.id ? savedById.get(draft.id) : undefined;
            const amount = preview
              ? (preview.lineAmounts[draft.id ?? draft.key] ?? null)
              : savedLine && savedLine.status !== 'declined'
                ? parseMoney(savedLine.total, { negative: true })
                : null;
            return (
              <LineRow
                key={draft.key}
                draft={draft}
                index={index}
                count={saved.length}
                amount={amount}
                status={savedLine?.status ?? 'pending'}
                problems={problems[draft.key] ?? {}}
                dirty={Boolean(edits[draft.key]) || !draft.id}
                saving={saving.has(draft.key)}
                readOnly={readOnly}
                shopLaborRate={rates ? (rates.laborRate / 100).toFixed(2) : ''}
                rateNote={shopRateNote(draft, rates)}
                shopSettingsPath={paths.instanceShopSettings(instance)}
                technicians={technicians}
                discountTargets={discountTargets.filter((option) => option.id !== draft.id)}
                onChange={(patch) => update(draft, patch)}
                onKeyDown={handleRowKeyDown(draft)}
                onBlur={handleRowBlur(draft)}
                onMove={(by) => handleMove(draft, by)}
                onRemove={() => handleRemove(draft)}
              />
            );
          })}
        </ol>
      )}
      {readOnly || drafts.length === 0 ? null : (
        <p className="text-xs text-muted-foreground">
          Enter saves a line and starts the next; a line is also saved when you leave it. Alt+↑ / Alt+↓ move it.
        </p>
      )}
      <Alert>{error}</Alert>
      <TotalsSummary totals={detail.totals} preview={preview} hasLines={drafts.length > 0} />
    </section>
  );
}
