import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

export interface ReorderJobLinesInput extends JobCommandTarget {
  /** Every line id, once each, in the new order. */
  lineIds: string[];
}

/** `POST …/pipeline/{id}/lines/reorder`: the lines in a new order. */
export function reorderJobLines(instance: string, { lineIds, ...target }: ReorderJobLinesInput) {
  return sendJobCommand(instance, target, ['lines', 'reorder'], { body: { lineIds } });
}

export function useReorderJobLines(instance: string) {
  return useJobCommand(instance, reorderJobLines);
}
