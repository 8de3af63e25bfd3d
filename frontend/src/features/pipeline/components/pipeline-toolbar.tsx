import { type JobSort, type Stage, STAGES } from '@crm/projections/pipeline';
import type { PipelineFilters } from '../utils/pipeline-url';
import { Button } from '@/components/ui/button';
import { ArrowUpDownIcon, SearchIcon } from '@/components/ui/icons';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/**
 * The sort select's choices (the Maven variant's). `short` is what a phone's half-width box shows
 * after "Sort:", where the whole label does not fit.
 */
export const SORT_OPTIONS: ReadonlyArray<{ value: JobSort; label: string; short: string }> = [
  { value: 'newest', label: 'Newest First', short: 'Newest' },
  { value: 'oldest', label: 'Oldest First', short: 'Oldest' },
  { value: 'name-asc', label: 'Name A-Z', short: 'A-Z' },
  { value: 'name-desc', label: 'Name Z-A', short: 'Z-A' },
  { value: 'stage', label: 'Stage', short: 'Stage' },
];

const ALL_STAGES = 'all';

export type { PipelineFilters };

export function PipelineToolbar({ filters, onChange }: { filters: PipelineFilters; onChange: (next: PipelineFilters) => void }) {
  const set = (patch: Partial<PipelineFilters>) => onChange({ ...filters, ...patch });
  const sortOption = SORT_OPTIONS.find((option) => option.value === filters.sort) ?? SORT_OPTIONS[0]!;

  return (
    <div className="grid gap-3 rounded-xl border bg-card p-3 shadow-sm sm:p-4">
      <div className="flex flex-col gap-3 md:flex-row">
        <div className="relative flex-1">
          <SearchIcon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <Input
            type="search"
            value={filters.search}
            onChange={(event) => set({ search: event.target.value })}
            placeholder="Search entries..."
            aria-label="Search entries"
            className="pl-9"
            maxLength={200}
          />
        </div>
        <div className="grid grid-cols-2 gap-3 md:flex">
          <Select
            value={filters.stage ?? ALL_STAGES}
            // A chosen stage replaces the canceled toggle (the server lets the stage win).
            onValueChange={(value) => set({ stage: value === ALL_STAGES ? null : (value as Stage), showCanceled: false })}
          >
            <SelectTrigger aria-label="Filter by stage" className="md:w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL_STAGES}>All stages</SelectItem>
              {STAGES.map((stage) => (
                <SelectItem key={stage} value={stage}>
                  {stage}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Select value={filters.sort} onValueChange={(value) => set({ sort: value as JobSort })}>
            {/* Beside the stage filter, the box says it sorts: "Sort:" at every width (the value alone, "Stage",
                read as a second stage filter on a phone). A phone's half of the width holds the short order and no icon. */}
            <SelectTrigger aria-label="Sort entries" className="md:w-52">
              <ArrowUpDownIcon className="mr-1.5 hidden size-4 align-[-3px] text-muted-foreground md:inline" />
              <span className="text-muted-foreground">Sort: </span>
              <SelectValue>
                <span className="md:hidden">{sortOption.short}</span>
                <span className="hidden md:inline">{sortOption.label}</span>
              </SelectValue>
            </SelectTrigger>
            <SelectContent>
              {SORT_OPTIONS.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      {/* One sort control (the select above); the canceled toggle sits on its own. */}
      <div className="flex flex-wrap items-center justify-end gap-2">
        <Button
          variant={filters.showCanceled ? 'secondary' : 'outline'}
          size="sm"
          aria-pressed={filters.showCanceled}
          onClick={() => set({ showCanceled: !filters.showCanceled, stage: null })}
        >
          {filters.showCanceled ? 'Hide Canceled' : 'Canceled'}
        </Button>
      </div>
    </div>
  );
}
