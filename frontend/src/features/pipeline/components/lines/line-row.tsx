import { formatMoney, REPAIR_ORDER_LIMITS, type LineStatus } from '@crm/projections/contract';
import type { FocusEvent, InputHTMLAttributes, KeyboardEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ChevronDownIcon, ChevronUpIcon, TrashIcon } from '@/components/ui/icons';
import { fieldClasses } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { LINE_KIND_LABELS, type LineDraft } from '../../utils/line-draft';

/** The id of a line's box, so focus can be put back after the rows move. */
export const lineFieldId = (key: string, field: string) => `line-${key}-${field}`;

type Problems = Partial<Record<string, string>>;

/** One box of a line: a small label above it, the server's words under it when refused. */
function LineField({
  draftKey,
  field,
  label,
  problems,
  className,
  children,
}: {
  draftKey: string;
  field: string;
  label: string;
  problems: Problems;
  className?: string;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const id = lineFieldId(draftKey, field);
  const problem = problems[field];
  return (
    <div className={cn('grid min-w-0 content-start gap-1', className)}>
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      {children({ id, ...(problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {}) })}
      {problem ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

const boxClasses = cn(fieldClasses, 'h-9');

/** A box that a reader who may not change the job sees as plain text (no border, no fill), not as a field to type in. */
const readOnlyText = 'read-only:border-transparent read-only:bg-transparent read-only:px-0 read-only:shadow-none';

function TextBox(props: InputHTMLAttributes<HTMLInputElement>) {
  // A reader sees what is there: an empty box shows nothing rather than an example value.
  return (
    <input
      type="text"
      autoComplete="off"
      {...props}
      placeholder={props.readOnly ? undefined : props.placeholder}
      className={cn(boxClasses, readOnlyText, props.className)}
    />
  );
}

function NumberBox(props: InputHTMLAttributes<HTMLInputElement>) {
  return <TextBox inputMode="decimal" {...props} className={cn('text-right tabular-nums', props.className)} />;
}

const STATUS_BADGES: Record<LineStatus, { label: string; variant: 'success' | 'destructive' } | null> = {
  pending: null,
  approved: { label: 'Approved', variant: 'success' },
  declined: { label: 'Declined', variant: 'destructive' },
};

/**
 * One line of the repair order, edited in place. What it shows depends on its kind; the
 * amount on the right is the line's own, rounded by the shared rule as it is typed. Enter
 * saves the line and starts a new one; Alt+↑ / Alt+↓ move it; its buttons do the same.
 */
export function LineRow({
  draft,
  index,
  count,
  amount,
  status,
  problems,
  dirty,
  saving,
  readOnly,
  shopLaborRate,
  rateNote,
  shopSettingsPath,
  technicians,
  discountTargets,
  onChange,
  onKeyDown,
  onBlur,
  onMove,
  onRemove,
}: {
  draft: LineDraft;
  index: number;
  count: number;
  /** Cents, as the totals count it (discounts negative); null when it is left out. */
  amount: number | null;
  status: LineStatus;
  problems: Problems;
  dirty: boolean;
  saving: boolean;
  readOnly: boolean;
  /** The shop's labor rate as text, shown where a labor line has none of its own. */
  shopLaborRate: string;
  /** For a labor line without its own rate: the shop's rate it bills at, and whether the shop has set none. */
  rateNote: { rate: string; unset: boolean } | null;
  /** Where the shop's labor rate is set. */
  shopSettingsPath: string;
  technicians: readonly string[];
  /** The lines a discount can reduce: id and how each is called. */
  discountTargets: readonly { id: string; label: string }[];
  onChange: (patch: Partial<LineDraft>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onBlur: (event: FocusEvent<HTMLLIElement>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const key = draft.key;
  const declined = status === 'declined';
  const badge = STATUS_BADGES[status];
  const name = draft.description.trim() || `${LINE_KIND_LABELS[draft.kind]} line ${index + 1}`;
  const field = (field: keyof LineDraft) => ({
    value: String(draft[field]),
    readOnly,
    onKeyDown,
    onChange: (event: { target: { value: string } }) => onChange({ [field]: event.target.value }),
  });
  const choices = draft.technician && !technicians.includes(draft.technician) ? [draft.technician, ...technicians] : technicians;

  return (
    <li
      data-line-kind={draft.kind}
      data-line-status={status}
      aria-label={`${LINE_KIND_LABELS[draft.kind]}: ${name}${declined ? ' (declined)' : ''}`}
      onBlur={onBlur}
      className={cn(
        'grid gap-2 rounded-lg border bg-card p-3 sm:grid-cols-[auto_minmax(0,1fr)_auto] sm:items-start',
        declined && 'border-dashed bg-muted/40',
        dirty && 'border-primary/60',
      )}
    >
      <div className="flex items-center gap-2 sm:flex-col sm:items-start sm:pt-5">
        <Badge variant="secondary" className="w-20 justify-center">
          {LINE_KIND_LABELS[draft.kind]}
        </Badge>
        {badge ? <Badge variant={badge.variant}>{badge.label}</Badge> : null}
        {!draft.id ? <span className="text-xs text-muted-foreground">Not saved</span> : null}
      </div>

      <div className={cn('flex flex-wrap gap-2', declined && '[&_input]:line-through')}>
        <LineField draftKey={key} field="description" label="Description" problems={problems} className="min-w-40 flex-[3_1_12rem]">
          {(props) => <TextBox {...props} {...field('description')} maxLength={REPAIR_ORDER_LIMITS.description} />}
        </LineField>

        {draft.kind === 'part' ? (
          <>
            <LineField draftKey={key} field="partNumber" label="Part number" problems={problems} className="flex-[1_1_7rem]">
              {(props) => <TextBox {...props} {...field('partNumber')} maxLength={REPAIR_ORDER_LIMITS.partNumber} spellCheck={false} />}
            </LineField>
            <LineField draftKey={key} field="quantity" label="Qty" problems={problems} className="w-16 flex-none">
              {(props) => <NumberBox {...props} {...field('quantity')} maxLength={12} />}
            </LineField>
            <LineField draftKey={key} field="unitCost" label="Unit cost" problems={problems} className="w-24 flex-none">
              {(props) => <NumberBox {...props} {...field('unitCost')} maxLength={16} placeholder="0.00" />}
            </LineField>
            <LineField draftKey={key} field="unitPrice" label="Unit price" problems={problems} className="w-24 flex-none">
              {(props) => <NumberBox {...props} {...field('unitPrice')} maxLength={16} placeholder="0.00" />}
            </LineField>
          </>
        ) : null}

        {draft.kind === 'labor' ? (
          <>
            <LineField draftKey={key} field="hours" label="Hours" problems={problems} className="w-20 flex-none">
              {(props) => <NumberBox {...props} {...field('hours')} maxLength={10} placeholder="0.0" />}
            </LineField>
            <LineField draftKey={key} field="rate" label="Rate / h" problems={problems} className="w-24 flex-none">
              {(props) => (
                <NumberBox {...props} {...field('rate')} maxLength={16} placeholder={shopLaborRate} title="Empty: the shop's labor rate" />
              )}
            </LineField>
            {rateNote?.unset ? (
              <p className="basis-full text-xs text-amber-700 dark:text-amber-400" role="note">
                The shop has no labor rate yet: without a rate of its own, this line bills {rateNote.rate} an hour. Type its rate, or set
                the labor rate in{' '}
                <Link to={shopSettingsPath} className="underline">
                  Shop settings
                </Link>
                .
              </p>
            ) : null}
            <LineField draftKey={key} field="technician" label="Technician" problems={problems} className="flex-[1_1_8rem]">
              {(props) => (
                <select
                  {...props}
                  value={draft.technician}
                  disabled={readOnly}
                  onKeyDown={onKeyDown}
                  onChange={(event) => onChange({ technician: event.target.value })}
                  className={boxClasses}
                >
                  <option value="">Unassigned</option>
                  {choices.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice}
                    </option>
                  ))}
                </select>
              )}
            </LineField>
          </>
        ) : null}

        {draft.kind === 'fee' || draft.kind === 'discount' ? (
          <>
            {/* Wider on a phone, where fields use the larger 16 px type: "Amount $" and "Percent %" fit beside the arrow. */}
            <LineField draftKey={key} field="basis" label="As" problems={problems} className="w-32 flex-none sm:w-28">
              {(props) => (
                <select
                  {...props}
                  value={draft.basis}
                  disabled={readOnly}
                  onKeyDown={onKeyDown}
                  onChange={(event) => onChange({ basis: event.target.value === 'percent' ? 'percent' : 'amount' })}
                  className={boxClasses}
                >
                  <option value="amount">Amount $</option>
                  <option value="percent">Percent %</option>
                </select>
              )}
            </LineField>
            <LineField
              draftKey={key}
              field={draft.basis === 'percent' ? 'percent' : 'amount'}
              label={draft.basis === 'percent' ? 'Percent' : 'Amount'}
              problems={problems}
              className="w-24 flex-none"
            >
              {(props) => (
                <NumberBox {...props} {...field('value')} maxLength={16} placeholder={draft.basis === 'percent' ? '0' : '0.00'} />
              )}
            </LineField>
          </>
        ) : null}

        {draft.kind === 'discount' ? (
          <LineField draftKey={key} field="appliesTo" label="Applies to" problems={problems} className="flex-[1_1_9rem]">
            {(props) => (
              <select
                {...props}
                value={draft.appliesTo}
                disabled={readOnly}
                onKeyDown={onKeyDown}
                onChange={(event) => onChange({ appliesTo: event.target.value })}
                className={boxClasses}
              >
                <option value="">The whole job</option>
                {discountTargets.map((target) => (
                  <option key={target.id} value={target.id}>
                    {target.label}
                  </option>
                ))}
              </select>
            )}
          </LineField>
        ) : (
          <label className="flex h-9 items-center gap-2 self-end text-sm">
            <input
              id={lineFieldId(key, 'taxable')}
              type="checkbox"
              checked={draft.taxable}
              disabled={readOnly}
              onKeyDown={onKeyDown}
              onChange={(event) => onChange({ taxable: event.target.checked })}
              className="size-4 accent-primary"
            />
            Taxable
          </label>
        )}
      </div>

      <div className="flex items-center justify-between gap-1 sm:flex-col sm:items-end">
        <p className="min-w-24 text-right sm:pt-5">
          <span className="sr-only">Line amount </span>
          <span data-line-amount className={cn('font-semibold tabular-nums', declined && 'text-muted-foreground line-through')}>
            {amount === null ? '—' : formatMoney(amount)}
          </span>
          {saving ? <span className="block text-xs text-muted-foreground">Saving...</span> : null}
        </p>
        {readOnly ? null : (
          <div className="flex gap-0.5">
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Move ${name} up`}
              aria-keyshortcuts="Alt+ArrowUp"
              aria-disabled={index === 0 || !draft.id || undefined}
              onClick={() => onMove(-1)}
            >
              <ChevronUpIcon />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Move ${name} down`}
              aria-keyshortcuts="Alt+ArrowDown"
              aria-disabled={index === count - 1 || !draft.id || undefined}
              onClick={() => onMove(1)}
            >
              <ChevronDownIcon />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="size-8 text-destructive hover:bg-destructive/10 hover:text-destructive"
              aria-label={`Remove ${name}`}
              onClick={onRemove}
            >
              <TrashIcon />
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}
