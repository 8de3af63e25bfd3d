import { projections } from '@crm/projections/read-models';
import { rebuildReadModels, type RebuildOptions, type RebuildReport } from '@crm/projections/runtime/rebuild';
import { createProgress } from './cli.ts';

/**
 * Rebuilds every read model (`rebuildReadModels`) with a progress line on stderr: the rebuild
 * script's and the seed's, which rebuilds after writing the shop's history.
 */
export async function rebuildWithProgress(label: string, options: Pick<RebuildOptions, 'store' | 'knex'>): Promise<RebuildReport> {
  const progress = createProgress(label, 'events');
  progress(0, null);
  const report = await rebuildReadModels({
    ...options,
    projections,
    onProgress: ({ replayed, total }) => progress(replayed, total),
  });
  progress(report.eventsReplayed, report.eventsReplayed);
  return report;
}
