import { JOB_SORTS, type JobSort, normalizeStage, type Stage } from '@crm/projections/pipeline';

/**
 * The pipeline's filters and view in the address (search params), shared by the table,
 * the cards and the board: a link or a reload shows the same list, and Back goes back.
 */

export const PIPELINE_VIEWS = ['table', 'cards', 'board'] as const;
export type PipelineView = (typeof PIPELINE_VIEWS)[number];

export interface PipelineFilters {
  search: string;
  sort: JobSort;
  stage: Stage | null;
  showCanceled: boolean;
}

export const DEFAULT_SORT: JobSort = 'stage';

export function filtersFromParams(params: URLSearchParams): PipelineFilters {
  const sort = params.get('sort');
  const stage = params.get('stage');
  return {
    search: params.get('q') ?? '',
    sort: sort && (JOB_SORTS as readonly string[]).includes(sort) ? (sort as JobSort) : DEFAULT_SORT,
    stage: stage ? normalizeStage(stage) : null,
    showCanceled: params.get('canceled') === '1',
  };
}

/** The view asked for, or null (then the screen picks by width: table when wide, cards when narrow). */
export function viewFromParams(params: URLSearchParams): PipelineView | null {
  const view = params.get('view');
  return view && (PIPELINE_VIEWS as readonly string[]).includes(view) ? (view as PipelineView) : null;
}

/** The params for filters and a view; defaults are left out so plain links stay plain. Other params are kept. */
export function pipelineParams(current: URLSearchParams, filters: PipelineFilters, view: PipelineView | null): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string | null) => (value ? next.set(key, value) : next.delete(key));
  set('q', filters.search);
  set('sort', filters.sort === DEFAULT_SORT ? null : filters.sort);
  set('stage', filters.stage);
  set('canceled', filters.showCanceled ? '1' : null);
  set('view', view);
  return next;
}
