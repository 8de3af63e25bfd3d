import type { LineInput } from '@crm/projections/contract';
import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

export interface AddJobLineInput extends JobCommandTarget {
  line: LineInput;
}

/** `POST …/pipeline/{id}/lines`: a new line (placed last unless `position` says where). */
export function addJobLine(instance: string, { line, ...target }: AddJobLineInput) {
  return sendJobCommand(instance, target, ['lines'], { body: line });
}

export function useAddJobLine(instance: string) {
  return useJobCommand(instance, addJobLine);
}
