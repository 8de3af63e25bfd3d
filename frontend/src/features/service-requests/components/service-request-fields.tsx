import { formatPhoneAsTyped } from '@crm/projections/shared';
import { PhoneInput } from '@/components/phone-input';
import {
  SERVICE_REQUEST_FIELD_LABELS,
  SERVICE_REQUEST_LIMITS,
  SERVICE_TYPES,
  type ServiceRequestField,
} from '@crm/projections/service-requests';
import { Field, fieldControlProps } from '@/components/ui/field';
import { fieldClasses, Input, Textarea } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import type { FormErrors, ServiceRequestForm } from '../utils/service-request-form';

/**
 * The request's six fields (Customer Name, Contact Email, Vehicle Type, Service Type,
 * Scheduled Date, Additional Notes), shared by the staff form, the edit screen and the
 * public page. `idPrefix` keeps ids unique when two forms are on a page.
 */
export function ServiceRequestFieldset({
  form,
  errors,
  required,
  onChange,
  idPrefix = 'sr',
  disabled = false,
}: {
  form: ServiceRequestForm;
  errors: FormErrors;
  required: readonly ServiceRequestField[];
  onChange: (patch: Partial<ServiceRequestForm>) => void;
  idPrefix?: string;
  disabled?: boolean;
}) {
  const id = (field: ServiceRequestField) => `${idPrefix}-${field}`;
  const label = (field: ServiceRequestField) => (
    <>
      {SERVICE_REQUEST_FIELD_LABELS[field]}
      {required.includes(field) ? (
        <span aria-hidden="true" className="text-destructive">
          {' '}
          *
        </span>
      ) : null}
    </>
  );
  const control = (field: ServiceRequestField) => ({
    ...fieldControlProps(id(field), { error: errors[field] }),
    value: form[field],
    required: required.includes(field),
    disabled,
    onChange: (event: { target: { value: string } }) => onChange({ [field]: event.target.value }),
  });

  return (
    <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2" disabled={disabled}>
      <Field id={id('customerName')} label={label('customerName')} error={errors.customerName}>
        <Input {...control('customerName')} autoComplete="name" maxLength={SERVICE_REQUEST_LIMITS.customerName} placeholder="Jane Doe" />
      </Field>
      <Field id={id('contactEmail')} label={label('contactEmail')} error={errors.contactEmail}>
        <Input
          {...control('contactEmail')}
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={SERVICE_REQUEST_LIMITS.contactEmail}
          placeholder="jane@example.com"
        />
      </Field>
      <Field id={id('contactPhone')} label={label('contactPhone')} error={errors.contactPhone}>
        <PhoneInput
          {...fieldControlProps(id('contactPhone'), { error: errors.contactPhone })}
          value={formatPhoneAsTyped(form.contactPhone)}
          onChange={(contactPhone) => onChange({ contactPhone })}
          disabled={disabled}
        />
      </Field>
      <Field id={id('vehicleType')} label={label('vehicleType')} error={errors.vehicleType}>
        <Input {...control('vehicleType')} maxLength={SERVICE_REQUEST_LIMITS.vehicleType} placeholder="2019 Honda Civic" />
      </Field>
      <Field id={id('serviceType')} label={label('serviceType')} error={errors.serviceType}>
        {/* A native select: the phone's own picker, and the value is plain text. */}
        <select {...control('serviceType')} className={cn(fieldClasses, 'h-10')}>
          <option value="">Select a service...</option>
          {SERVICE_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </Field>
      <Field id={id('scheduledDate')} label={label('scheduledDate')} error={errors.scheduledDate}>
        <Input {...control('scheduledDate')} type="date" />
      </Field>
      <Field id={id('additionalNotes')} label={label('additionalNotes')} error={errors.additionalNotes} className="sm:col-span-2">
        <Textarea
          {...control('additionalNotes')}
          rows={4}
          maxLength={SERVICE_REQUEST_LIMITS.additionalNotes}
          placeholder="What does the vehicle need? When is it available?"
        />
      </Field>
    </fieldset>
  );
}
