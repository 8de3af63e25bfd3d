import type { PaymentInput } from '@crm/projections/contract';
import { type JobCommandTarget, sendJobCommand, useJobCommand } from './job-command';

export interface RecordPaymentInput extends JobCommandTarget {
  /** A refund is a negative amount with a reason. */
  payment: PaymentInput;
}

/** `POST …/pipeline/{id}/payments`. */
export function recordPayment(instance: string, { payment, ...target }: RecordPaymentInput) {
  return sendJobCommand(instance, target, ['payments'], { body: payment });
}

export function useRecordPayment(instance: string) {
  return useJobCommand(instance, recordPayment);
}
