import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

/**
 * `POST …/pipeline/{id}/invoice`: an invoice of the lines not declined, as they are now (the
 * shop's next invoice number; again after a change: a new revision of the same invoice).
 */
export function issueInvoice(instance: string, target: JobCommandTarget) {
  return sendJobCommand(instance, target, ['invoice'], { body: {} });
}

export function useIssueInvoice(instance: string) {
  return useJobCommand(instance, issueInvoice);
}
