import { parseList } from '@crm/projections/customers';

export interface ListSummary {
  shown: string[];
  /** How many items the summary leaves out ("+N more"). */
  hidden: number;
}

/** The first `max` items of a comma-separated text (or list), and how many are left out. */
export function summarizeList(value: string | readonly string[], max: number): ListSummary {
  const items = parseList(value);
  const limit = Math.max(0, Math.floor(max));
  return { shown: items.slice(0, limit), hidden: Math.max(0, items.length - limit) };
}

/** "+N more", with trailing dots where the card uses them (Recent Services). */
export function moreLabel(hidden: number, { ellipsis = false }: { ellipsis?: boolean } = {}): string {
  return hidden > 0 ? `+${hidden} more${ellipsis ? '...' : ''}` : '';
}
