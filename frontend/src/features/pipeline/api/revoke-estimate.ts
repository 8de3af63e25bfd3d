import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

/** `POST …/pipeline/{id}/estimate/revoke`: the link sent stops working. */
export function revokeEstimate(instance: string, target: JobCommandTarget) {
  return sendJobCommand(instance, target, ['estimate', 'revoke']);
}

export function useRevokeEstimate(instance: string) {
  return useJobCommand(instance, revokeEstimate);
}
