import type { Stage } from '@crm/projections/pipeline';

/**
 * One colour per stage, for badges and the inline stage changer, in both themes.
 * Full class names (Tailwind only generates what it finds written out).
 */
export const STAGE_STYLES: Record<Stage, string> = {
  Quote: 'border-sky-200 bg-sky-50 text-sky-800 dark:border-sky-400/30 dark:bg-sky-400/10 dark:text-sky-300',
  'Parts Ordered': 'border-amber-200 bg-amber-50 text-amber-800 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-300',
  'Parts In': 'border-orange-200 bg-orange-50 text-orange-800 dark:border-orange-400/30 dark:bg-orange-400/10 dark:text-orange-300',
  Scheduled: 'border-violet-200 bg-violet-50 text-violet-800 dark:border-violet-400/30 dark:bg-violet-400/10 dark:text-violet-300',
  'In Progress': 'border-blue-200 bg-blue-50 text-blue-800 dark:border-blue-400/30 dark:bg-blue-400/10 dark:text-blue-300',
  Completed: 'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-400/30 dark:bg-emerald-400/10 dark:text-emerald-300',
  Invoiced: 'border-cyan-200 bg-cyan-50 text-cyan-800 dark:border-cyan-400/30 dark:bg-cyan-400/10 dark:text-cyan-300',
  Paid: 'border-green-300 bg-green-100 text-green-900 dark:border-green-400/40 dark:bg-green-400/15 dark:text-green-300',
  Canceled: 'border-rose-200 bg-rose-50 text-rose-800 dark:border-rose-400/30 dark:bg-rose-400/10 dark:text-rose-300',
};

/** The dot beside a stage's name in menus. */
export const STAGE_DOTS: Record<Stage, string> = {
  Quote: 'bg-sky-500',
  'Parts Ordered': 'bg-amber-500',
  'Parts In': 'bg-orange-500',
  Scheduled: 'bg-violet-500',
  'In Progress': 'bg-blue-500',
  Completed: 'bg-emerald-500',
  Invoiced: 'bg-cyan-500',
  Paid: 'bg-green-600',
  Canceled: 'bg-rose-500',
};
