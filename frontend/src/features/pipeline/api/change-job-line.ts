import type { LineChangesInput } from '@crm/projections/contract';
import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

export interface ChangeJobLineInput extends JobCommandTarget {
  lineId: string;
  /** Only the fields that changed. */
  changes: LineChangesInput;
}

/** `PUT …/pipeline/{id}/lines/{lineId}`: the fields sent change, the rest stay. */
export function changeJobLine(instance: string, { lineId, changes, ...target }: ChangeJobLineInput) {
  return sendJobCommand(instance, target, ['lines', lineId], { method: 'PUT', body: changes });
}

export function useChangeJobLine(instance: string) {
  return useJobCommand(instance, changeJobLine);
}
