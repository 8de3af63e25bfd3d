import { balanceWords, formatMoney } from '@crm/projections/contract';
import { formatQuote, type JobView } from '@crm/projections/pipeline';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { jobLabel } from '../utils/entry-title';
import { jobMoney } from '../utils/job-money';

/**
 * What a job card shows on the phone list and on the stage board alike. `compact` is the
 * board's narrower column: smaller type and icons.
 */

/**
 * The job's number and name. The name's button stretches over the whole card (its `after:` box),
 * so a tap anywhere on the card opens the job; controls on the card sit above it (`z-10`).
 * `openClassName` marks the button so the card can ring itself while it has keyboard focus.
 */
export function JobCardTitle({
  job,
  compact,
  openClassName,
  onOpen,
  ...buttonProps
}: {
  job: JobView;
  compact: boolean;
  openClassName: string;
  onOpen: () => void;
} & Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'className' | 'onClick' | 'children'>) {
  return (
    <div className="grid min-w-0 gap-0.5">
      {job.jobNumber ? <span className="font-mono text-xs text-muted-foreground">#{job.jobNumber}</span> : null}
      <h3 className={cn('leading-tight font-semibold', !compact && 'text-base')}>
        <button
          type="button"
          className={cn(openClassName, 'text-left outline-none after:absolute after:inset-0 after:rounded-xl')}
          onClick={onOpen}
          {...buttonProps}
        >
          {jobLabel(job)}
        </button>
      </h3>
    </div>
  );
}

/** One line of the card's facts: an icon with its name for screen readers, or the name shown when there is no icon. */
export function JobCardFact({
  icon,
  label,
  compact,
  valueClassName,
  children,
}: {
  icon?: ReactNode;
  label: string;
  compact: boolean;
  valueClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn('flex items-center', compact ? 'gap-1.5' : 'gap-2')}>
      {icon ? (
        <dt className={compact ? '[&_svg]:size-3.5' : '[&_svg]:size-4'}>
          {icon}
          <span className="sr-only">{label}</span>
        </dt>
      ) : (
        <dt>{label}</dt>
      )}
      <dd className={valueClassName}>{children}</dd>
    </div>
  );
}

/** The card's footer: the quote, or for an itemized job its total and, once invoiced or paid, the balance due. */
export function JobCardQuote({ job, compact }: { job: Pick<JobView, 'quote' | 'totals' | 'stage'>; compact: boolean }) {
  const money = jobMoney(job);
  return (
    <div className={cn('grid gap-0.5 border-t pt-2', !compact && 'text-sm')}>
      <div className="flex items-center justify-between">
        <span className={cn('text-muted-foreground', compact && 'text-xs')}>{money.itemized ? 'Total' : 'Quote'}</span>
        <span className="font-semibold tabular-nums">{money.itemized ? formatMoney(money.total) : formatQuote(job.quote)}</span>
      </div>
      {money.showBalance ? (
        <div className="flex items-center justify-between" data-card-balance>
          <span className={cn('text-muted-foreground', compact && 'text-xs')}>
            {money.balance === 0 ? 'Balance' : balanceWords(money.balance).label}
          </span>
          <span className={cn('tabular-nums', money.balance > 0 ? 'font-semibold text-destructive' : 'text-success')}>
            {money.balance === 0 ? 'Paid' : balanceWords(money.balance).amount}
          </span>
        </div>
      ) : null}
    </div>
  );
}
