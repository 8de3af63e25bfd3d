import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

export interface RemoveJobLineInput extends JobCommandTarget {
  lineId: string;
}

/** `DELETE …/pipeline/{id}/lines/{lineId}`. */
export function removeJobLine(instance: string, { lineId, ...target }: RemoveJobLineInput) {
  return sendJobCommand(instance, target, ['lines', lineId], { method: 'DELETE' });
}

export function useRemoveJobLine(instance: string) {
  return useJobCommand(instance, removeJobLine);
}
