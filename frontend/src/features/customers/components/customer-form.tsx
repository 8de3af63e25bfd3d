import { formatPhoneAsTyped } from '@crm/projections/contract';
import { CUSTOMER_MESSAGES, type CustomerField, type CustomerView } from '@crm/projections/customers';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { CustomerMatchOfferPanel, useCustomerMatchOffer } from '@/components/customer-match-offer';
import { customerPath } from '@/config/paths';
import { ConsentFields, type ConsentValue } from '@/components/messages/consent-fields';
import { saveCustomerConsent, useCustomerConsent } from '@/components/messages/messages-api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldControlProps } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { NewerVersionNotice } from '@/components/newer-version-notice';
import { SaveErrorMessage } from '@/components/save-error-message';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { cn } from '@/lib/cn';
import { CONFLICT_FALLBACK } from '@/lib/concurrency';
import { toast } from '@/lib/toast';
import { useCreateCustomer } from '../api/create-customer';
import { customerQueryKey } from '../api/get-customer';
import { conflictingCustomer, useUpdateCustomer } from '../api/update-customer';
import { CUSTOMER_FIELD_LABELS, CUSTOMER_TEXTS } from '../constants/customer-texts';
import {
  customerChanges,
  type CustomerFormErrors,
  type CustomerFormValues,
  customerToForm,
  EMPTY_CUSTOMER_FORM,
  fieldOfServerMessage,
  isCustomerFormDirty,
  validateCustomerForm,
} from '../utils/customer-form';
import { VehicleChipsInput } from './vehicle-chips-input';

type TextField = Exclude<keyof CustomerFormValues, 'vehicles' | 'vehicleDraft'>;

const HINTS: Partial<Record<CustomerField, string>> = {
  vehicles:
    'Type YEAR MAKE MODEL and press Enter: each becomes a vehicle with its own page; one removed here is deleted. Escape clears the text.',
  pastAppointments: 'Comma separated: Vehicle, Service, Date',
  invoices: 'Comma separated',
};

/**
 * The add/edit customer form: one component for the modal and the standalone pages.
 * `customer` (read with its whole phone) makes it an edit; without it, it creates one.
 * Saving sends only what changed on an edit, and reports through toasts.
 */
export function CustomerForm({
  instance,
  customer,
  idPrefix = 'customer',
  onSaved,
  onCancel,
  onDirtyChange,
  className,
  actionsClassName,
}: {
  instance: string;
  customer?: CustomerView;
  idPrefix?: string;
  onSaved: (customer: CustomerView) => void;
  onCancel: () => void;
  onDirtyChange?: (dirty: boolean) => void;
  className?: string;
  actionsClassName?: string;
}) {
  // The version being edited: the one read, or the current one loaded after a conflict.
  const [base, setBase] = useState<CustomerView | undefined>(customer);
  const [initial, setInitial] = useState<CustomerFormValues>(() => (customer ? customerToForm(customer) : EMPTY_CUSTOMER_FORM));
  const [form, setForm] = useState<CustomerFormValues>(initial);
  const [errors, setErrors] = useState<CustomerFormErrors>({});
  /** A save refused because someone else changed the customer meanwhile (409): the customer as it is now. */
  const [conflict, setConflict] = useState<{ current: CustomerView; message: string } | null>(null);
  const createCustomer = useCreateCustomer(instance);
  const updateCustomer = useUpdateCustomer(instance);
  const pending = createCustomer.isPending || updateCustomer.isPending;
  const navigate = useNavigate();
  // A new customer: the ones who already have this name, phone or email are offered first.
  const matchOffer = useCustomerMatchOffer(instance, { name: form.name, phone: form.phone, email: form.email }, !base);
  // Consent to messages is a record of its own (who and when it was given), saved after the customer.
  const recordedConsent = useCustomerConsent(instance, base?.id ?? null);
  const queryClient = useQueryClient();
  const [consentEdit, setConsentEdit] = useState<ConsentValue | null>(null);
  const savedConsent: ConsentValue = {
    emailConsent: recordedConsent.data?.emailConsent ?? false,
    smsConsent: recordedConsent.data?.smsConsent ?? false,
  };
  const consent = consentEdit ?? savedConsent;
  const consentDirty = consent.emailConsent !== savedConsent.emailConsent || consent.smsConsent !== savedConsent.smsConsent;
  const dirty = isCustomerFormDirty(initial, form) || consentDirty;

  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);

  const fieldId = (field: CustomerField) => `${idPrefix}-${field}`;

  /** Editing a field clears its error, and the "at least one field" one (shown at Name). */
  const clearError = (field: CustomerField) => {
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      if (next.name === CUSTOMER_MESSAGES.atLeastOne) delete next.name;
      return Object.keys(next).length === Object.keys(current).length ? current : next;
    });
  };

  const update = (field: TextField) => (event: { target: { value: string } }) => {
    const value = field === 'phone' ? formatPhoneAsTyped(event.target.value) : event.target.value;
    setForm((current) => ({ ...current, [field]: value }));
    clearError(field);
  };

  const showServerError = (error: unknown, fallback: string) => {
    reportFailure(fallback, error);
    const message = errorMessage(error, fallback);
    const field = message === fallback ? null : fieldOfServerMessage(message);
    if (field) setErrors({ [field]: message });
    toast({ title: 'Error', description: message, variant: 'destructive' });
  };

  /** Starts over from a version of the customer: the form shows it, and the next save goes over it. */
  const loadVersion = (version: CustomerView) => {
    const values = customerToForm(version);
    setBase(version);
    setInitial(values);
    setForm(values);
    setErrors({});
    setConflict(null);
  };

  const handleLoadCurrent = () => {
    if (conflict) loadVersion(conflict.current);
  };

  /** Someone else's newer version: `customer` is read again after a live update; it is offered, not poured over the form. */
  const newer = base && customer && customer.id === base.id && (customer.revision ?? -1) > (base.revision ?? -1) ? customer : null;

  /** The customer is saved: its consent too when it changed, then the form is done. */
  const finish = (saved: CustomerView, message: string) => {
    if (!consentDirty) {
      toast({ title: message });
      onSaved(saved);
      return;
    }
    saveCustomerConsent(instance, saved.id, consent).then(
      () => {
        // The customer's record shows its consent: read it again.
        void queryClient.invalidateQueries({ queryKey: customerQueryKey(instance, saved.id), exact: true });
        toast({ title: message });
        setConsentEdit(null);
        onSaved(saved);
      },
      (error: unknown) => showServerError(error, 'The consent could not be saved'),
    );
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    setConflict(null);
    const result = validateCustomerForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(fieldId(result.firstField))?.focus();
      return;
    }
    setErrors({});
    if (!base) {
      const input = result.value;
      void matchOffer.mustAnswer().then((mustAnswer) => {
        if (mustAnswer) return;
        createCustomer.mutate(input, {
          onSuccess: (created) => finish(created, CUSTOMER_TEXTS.created),
          onError: (error) => showServerError(error, CUSTOMER_TEXTS.createFailed),
        });
      });
      return;
    }
    const changes = customerChanges(initial, result.value);
    if (Object.keys(changes).length === 0) {
      if (consentDirty) finish(base, CUSTOMER_TEXTS.updated);
      else onSaved(base);
      return;
    }
    // Only over the version this form was filled from: a colleague's save since is a conflict.
    updateCustomer.mutate(
      { id: base.id, changes, revision: base.revision },
      {
        onSuccess: (updated) => finish(updated, CUSTOMER_TEXTS.updated),
        onError: (error) => {
          const current = conflictingCustomer(error);
          if (!current) return showServerError(error, CUSTOMER_TEXTS.updateFailed);
          reportFailure(CUSTOMER_TEXTS.updateFailed, error);
          setConflict({ current, message: errorMessage(error, CONFLICT_FALLBACK) });
        },
      },
    );
  };

  const textField = (field: TextField, control: (props: ReturnType<typeof fieldControlProps>) => ReactNode, wide = false) => (
    <Field
      id={fieldId(field)}
      label={CUSTOMER_FIELD_LABELS[field]}
      hint={HINTS[field]}
      error={errors[field]}
      className={cn(wide && 'sm:col-span-2')}
    >
      {control(fieldControlProps(fieldId(field), { hint: Boolean(HINTS[field]), error: errors[field] }))}
    </Field>
  );

  return (
    <form onSubmit={handleSubmit} noValidate className={cn('grid gap-5', className)} aria-busy={pending || undefined}>
      {newer ? <NewerVersionNotice record="customer" dirty={dirty} onLoad={() => loadVersion(newer)} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {textField('name', (props) => (
          <Input {...props} value={form.name} onChange={update('name')} autoComplete="off" placeholder="Full name" />
        ))}
        {textField('phone', (props) => (
          <Input
            {...props}
            type="tel"
            inputMode="tel"
            value={form.phone}
            onChange={update('phone')}
            autoComplete="off"
            placeholder="XXX-XXX-XXXX"
            maxLength={12}
          />
        ))}
        {textField('email', (props) => (
          <Input
            {...props}
            type="email"
            value={form.email}
            onChange={update('email')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="name@example.com"
          />
        ))}
        {textField('address', (props) => (
          <Input {...props} value={form.address} onChange={update('address')} autoComplete="off" placeholder="Street, City" />
        ))}
        <CustomerMatchOfferPanel
          offer={matchOffer}
          onUse={(match) => void navigate(customerPath(instance, match.id))}
          className="sm:col-span-2"
        />
        <Field
          id={fieldId('vehicles')}
          label={CUSTOMER_FIELD_LABELS.vehicles}
          hint={HINTS.vehicles}
          error={errors.vehicles}
          className="sm:col-span-2"
        >
          <VehicleChipsInput
            id={fieldId('vehicles')}
            vehicles={form.vehicles}
            draft={form.vehicleDraft}
            onVehiclesChange={(vehicles) => {
              setForm((current) => ({ ...current, vehicles }));
              clearError('vehicles');
            }}
            onDraftChange={(vehicleDraft) => setForm((current) => ({ ...current, vehicleDraft }))}
            invalid={Boolean(errors.vehicles)}
            describedBy={fieldControlProps(fieldId('vehicles'), { hint: true, error: errors.vehicles })['aria-describedby']}
          />
        </Field>
        {textField(
          'pastAppointments',
          (props) => (
            <Textarea
              {...props}
              rows={2}
              value={form.pastAppointments}
              onChange={update('pastAppointments')}
              placeholder="Vehicle, Service, Date"
            />
          ),
          true,
        )}
        {textField(
          'invoices',
          (props) => (
            <Input {...props} value={form.invoices} onChange={update('invoices')} autoComplete="off" placeholder="INV-1001, INV-1002" />
          ),
          true,
        )}
        {textField(
          'notes',
          (props) => (
            <Textarea {...props} value={form.notes} onChange={update('notes')} />
          ),
          true,
        )}
      </div>
      <ConsentFields value={consent} onChange={setConsentEdit} recorded={recordedConsent.data} disabled={pending} />
      <Alert>{conflict ? <SaveErrorMessage message={conflict.message} onLoadCurrent={handleLoadCurrent} /> : null}</Alert>
      <div className={cn('grid grid-cols-2 gap-2 sm:flex sm:justify-end', actionsClassName)}>
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" aria-disabled={pending || undefined}>
          {pending ? 'Saving...' : base ? 'Save Changes' : 'Create Customer'}
        </Button>
      </div>
    </form>
  );
}
