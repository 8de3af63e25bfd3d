import type { PaymentMethod } from '@crm/projections/contract';

/** The payment form's boxes as typed; a refund is ticked, its amount typed without a sign. */
export interface PaymentForm {
  refund: boolean;
  amount: string;
  method: PaymentMethod;
  reference: string;
  reason: string;
}

export const EMPTY_PAYMENT_FORM: PaymentForm = { refund: false, amount: '', method: 'card', reference: '', reason: '' };

/** The payment as the API takes it: a refund is the amount typed, negative, with its reason. */
export function paymentPayload(form: PaymentForm) {
  const amount = form.amount.trim().replace(/^-/, '');
  return {
    amount: form.refund && amount ? `-${amount}` : amount,
    method: form.method,
    reference: form.reference,
    ...(form.refund ? { reason: form.reason } : {}),
  };
}
