import {
  formatDateTime,
  balanceWords,
  formatMoney,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
  type PaymentMethod,
  paymentInput,
  parseMoney,
  REPAIR_ORDER_LIMITS,
} from '@crm/projections/contract';
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { fieldClasses, Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { reportFailure } from '@/lib/report-failure';
import { useRecordPayment } from '../../api/record-payment';
import { EMPTY_PAYMENT_FORM as EMPTY, type PaymentForm, paymentPayload } from '../../utils/payment-form';
import type { RepairOrderPanelProps } from './panel-props';

/**
 * Payments and refunds: the list (newest last, with who recorded each) and the form. A job
 * whose balance reaches zero moves to Paid by itself; a refund that reopens it moves it back.
 */
export function PaymentsPanel({ instance, job, loaded, canWrite, onSaved, linesSaving = false }: RepairOrderPanelProps) {
  const record = useRecordPayment(instance);
  const [form, setForm] = useState<PaymentForm>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const balance = parseMoney(job.totals.balance, { negative: true }) ?? 0;
  const change = (patch: Partial<PaymentForm>) => setForm((current) => ({ ...current, ...patch }));
  // Enter in a box records the payment (inside the entry's form it would save the entry instead).
  const handleEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') handleRecord(event);
  };

  // The payments form sits inside the entry's form: its own submit must not save the entry.
  const handleRecord = (event?: FormEvent | KeyboardEvent) => {
    event?.preventDefault();
    if (record.isPending || linesSaving) return;
    const payment = paymentPayload(form);
    const checked = paymentInput.safeParse(payment);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Check the payment');
      return;
    }
    setError(null);
    record.mutate(
      { jobId: job.id, etag: loaded.etag, payment },
      {
        onSuccess: (saved, sent) => {
          setForm(EMPTY);
          onSaved(saved, sent.etag);
        },
        onError: (failure) => {
          reportFailure('Record payment failed', failure);
          setError(errorMessage(failure, form.refund ? 'Could not record the refund' : 'Could not record the payment'));
        },
      },
    );
  };

  return (
    <section aria-labelledby="payments-heading" className="grid gap-3 rounded-lg border p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="payments-heading" className="text-base font-semibold">
          Payments
        </h3>
        <p className="text-sm">
          {balanceWords(balance).label}{' '}
          <strong className="tabular-nums" data-balance>
            {balanceWords(balance).amount}
          </strong>
        </p>
      </div>
      {job.payments.length === 0 ? (
        <p className="text-sm text-muted-foreground">No payments yet.</p>
      ) : (
        <ul className="divide-y rounded-md border text-sm" aria-label="Payments and refunds">
          {job.payments.map((payment) => (
            <li key={payment.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-0.5 px-3 py-2">
              <span className="grid min-w-0">
                <span className="font-medium">
                  {payment.kind === 'refund' ? 'Refund' : 'Payment'} · {PAYMENT_METHOD_LABELS[payment.method]}
                  {payment.reference ? ` · ${payment.reference}` : ''}
                </span>
                <span className="text-xs text-muted-foreground">
                  {formatDateTime(payment.receivedAt)}
                  {payment.recordedBy ? ` · ${payment.recordedBy}` : ''}
                  {payment.reason ? ` · ${payment.reason}` : ''}
                </span>
              </span>
              <span className={cn('font-semibold tabular-nums', payment.kind === 'refund' && 'text-destructive')}>
                {formatMoney(parseMoney(payment.amount, { negative: true }) ?? 0)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {canWrite ? (
        <div
          role="group"
          aria-label="Record a payment or refund"
          className="grid gap-2 sm:grid-cols-[auto_7rem_8rem_minmax(0,1fr)] sm:items-end"
        >
          <label className="flex h-9 items-center gap-2 text-sm sm:self-end">
            <input
              type="checkbox"
              checked={form.refund}
              onChange={(event) => change({ refund: event.target.checked })}
              className="size-4 accent-primary"
            />
            Refund
          </label>
          <div className="grid gap-1">
            <label htmlFor="payment-amount" className="text-xs font-medium text-muted-foreground">
              Amount
            </label>
            <Input
              id="payment-amount"
              onKeyDown={handleEnter}
              inputMode="decimal"
              value={form.amount}
              placeholder={balance > 0 && !form.refund ? formatMoney(balance).replace('$', '') : '0.00'}
              onChange={(event) => change({ amount: event.target.value })}
              maxLength={16}
              className="h-9 text-right tabular-nums"
            />
          </div>
          <div className="grid gap-1">
            <label htmlFor="payment-method" className="text-xs font-medium text-muted-foreground">
              Method
            </label>
            <select
              id="payment-method"
              value={form.method}
              onChange={(event) => change({ method: event.target.value as PaymentMethod })}
              className={cn(fieldClasses, 'h-9')}
            >
              {PAYMENT_METHODS.map((method) => (
                <option key={method} value={method}>
                  {PAYMENT_METHOD_LABELS[method]}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-1">
            <label htmlFor="payment-reference" className="text-xs font-medium text-muted-foreground">
              Reference
            </label>
            <Input
              id="payment-reference"
              onKeyDown={handleEnter}
              value={form.reference}
              onChange={(event) => change({ reference: event.target.value })}
              maxLength={REPAIR_ORDER_LIMITS.reference}
              placeholder="Card slip, check no."
              className="h-9"
            />
          </div>
          {form.refund ? (
            <div className="grid gap-1 sm:col-span-4">
              <label htmlFor="payment-reason" className="text-xs font-medium text-muted-foreground">
                Reason for the refund
              </label>
              <Input
                id="payment-reason"
                onKeyDown={handleEnter}
                value={form.reason}
                onChange={(event) => change({ reason: event.target.value })}
                maxLength={REPAIR_ORDER_LIMITS.reason}
                className="h-9"
              />
            </div>
          ) : null}
          <div className="sm:col-span-4">
            <Button size="sm" onClick={() => handleRecord()} aria-disabled={record.isPending || linesSaving || undefined}>
              {record.isPending ? 'Recording...' : form.refund ? 'Record refund' : 'Record payment'}
            </Button>
          </div>
        </div>
      ) : null}
      <Alert>{error}</Alert>
    </section>
  );
}
