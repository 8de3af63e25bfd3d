import { FEATURE_KEYS, FEATURE_LABELS, type FeatureKey, normalizeSubdomain } from '@crm/projections/platform';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, fieldControlProps, Fieldset } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { PinInput } from '@/components/ui/pin-input';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { sanitizePin } from '@/lib/sanitize-pin';
import { toast } from '@/lib/toast';
import { useCreateCrmInstance } from '../api/create-crm-instance';
import { FEATURE_DESCRIPTIONS } from '../constants/feature-labels';
import { shopAddresses } from '../utils/shop-addresses';
import { TimeZoneSelect } from './time-zone-select';
import {
  type CreateInstanceForm as InstanceForm,
  type CreateInstanceFormErrors,
  type CreateInstanceFormField,
  type CreateInstanceFormVariant,
  EMPTY_CREATE_INSTANCE_FORM,
  effectiveSubdomain,
  validateCreateInstanceForm,
} from '../utils/validate-create-instance';

type TextField = Exclude<CreateInstanceFormField, 'features'>;

export const INSTANCE_CREATED = 'CRM instance created successfully!';
export const INSTANCE_CREATE_FAILED = 'Failed to create CRM instance';

/** A group of fields: a card on the page; in the dialog a plain group, or a fieldset under a rule when it has a legend. */
function Section({
  variant,
  title,
  description,
  dialogLegend,
  children,
}: {
  variant: CreateInstanceFormVariant;
  title: string;
  description: string;
  dialogLegend?: string;
  children: ReactNode;
}) {
  if (variant === 'dialog') {
    return dialogLegend ? (
      <div className="border-t pt-4">
        <Fieldset legend={dialogLegend}>{children}</Fieldset>
      </div>
    ) : (
      <div className="grid gap-4">{children}</div>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 sm:grid-cols-2">{children}</CardContent>
    </Card>
  );
}

/**
 * The one create-instance form, used by the Create dialog and the full create page:
 * one form state, one validator, one request and one pair of
 * toasts. The dialog asks for a name and a display name; the page for a business name, a
 * subdomain, a display name (defaulting to the business name) and the features. `origin` is
 * where the app is reached: both show where the new shop's staff will sign in.
 */
export function CreateInstanceForm({
  variant,
  origin,
  onCreated,
  actions,
}: {
  variant: CreateInstanceFormVariant;
  origin: string;
  onCreated: () => void;
  /** Buttons shown before Create (the dialog's Cancel). */
  actions?: ReactNode;
}) {
  const [form, setForm] = useState<InstanceForm>(EMPTY_CREATE_INSTANCE_FORM);
  const [errors, setErrors] = useState<CreateInstanceFormErrors>({});
  const createInstance = useCreateCrmInstance();
  const page = variant === 'page';
  const fieldId = (field: CreateInstanceFormField) => `${page ? 'crm-builder' : 'create-instance'}-${field}`;

  const subdomain = page ? effectiveSubdomain(form) : normalizeSubdomain(form.businessName);
  const addresses = shopAddresses(origin, subdomain || 'yourshop');
  // The page's Create waits for a business name; the dialog says what is missing when submitted.
  const canSubmit = !page || form.businessName.trim() !== '';

  const update = (field: TextField) => (event: { target: { value: string } }) => {
    let value = event.target.value;
    if (field === 'subdomain') value = normalizeSubdomain(value);
    if (field === 'adminPin') value = sanitizePin(value);
    setForm((current) => ({ ...current, [field]: value }));
  };

  const toggleFeature = (key: FeatureKey) => (event: { target: { checked: boolean } }) => {
    const checked = event.target.checked;
    setForm((current) => ({ ...current, features: { ...current.features, [key]: checked } }));
  };

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canSubmit || createInstance.isPending) return;
    const result = validateCreateInstanceForm(form, variant);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(fieldId(result.firstField))?.focus();
      return;
    }
    setErrors({});
    createInstance.mutate(result.value, {
      onSuccess: () => {
        toast({ title: 'Success', description: INSTANCE_CREATED });
        setForm(EMPTY_CREATE_INSTANCE_FORM);
        onCreated();
      },
      onError: (error) => {
        reportFailure('Create CRM instance failed', error);
        toast({ title: 'Error', description: errorMessage(error, INSTANCE_CREATE_FAILED), variant: 'destructive' });
      },
    });
  };

  const control = (field: CreateInstanceFormField, hint = false) => fieldControlProps(fieldId(field), { hint, error: errors[field] });
  const messages = [...new Set(Object.values(errors))];

  const addressHint = (
    <>
      {page ? 'Lower-case letters and digits only. Staff sign in at:' : 'Its staff will sign in at:'}
      <span className="mt-1 grid gap-0.5">
        <span className="font-mono text-foreground" data-testid={page ? 'subdomain-preview' : 'create-instance-address'}>
          {addresses.short}
        </span>
        <span>
          or <span className="font-mono text-foreground">{addresses.signIn}</span>
        </span>
      </span>
    </>
  );

  return (
    <form onSubmit={handleSubmit} noValidate className={page ? 'grid gap-6' : 'grid gap-5'}>
      <Section variant={variant} title="Basic Information" description="How the shop is named and where its CRM lives.">
        <Field
          id={fieldId('businessName')}
          label={page ? 'Business Name' : 'Name'}
          error={errors.businessName}
          hint={page ? undefined : addressHint}
          className={page ? 'sm:col-span-2' : undefined}
        >
          <Input
            {...control('businessName', !page)}
            value={form.businessName}
            onChange={update('businessName')}
            placeholder={page ? 'Acme Auto Parts' : undefined}
            autoComplete={page ? 'organization' : 'off'}
            required={page}
          />
        </Field>
        {page ? (
          <Field id={fieldId('subdomain')} label="Subdomain" error={errors.subdomain} hint={addressHint} className="sm:col-span-2">
            <div className="flex items-stretch">
              {/* The origin on wider screens; phones read the whole address in the hint below. */}
              <span
                aria-hidden="true"
                className="flex shrink-0 items-center rounded-l-md border border-r-0 border-input bg-muted px-3 font-mono text-sm text-muted-foreground"
              >
                <span className="hidden sm:inline">{origin.replace(/\/+$/, '')}</span>/
              </span>
              <Input
                {...control('subdomain', true)}
                value={form.subdomain}
                onChange={update('subdomain')}
                placeholder={normalizeSubdomain(form.businessName) || 'yourshop'}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                className="min-w-0 rounded-l-none"
              />
            </div>
          </Field>
        ) : null}
        <Field
          id={fieldId('displayName')}
          label="Display Name"
          error={errors.displayName}
          hint={page ? 'Defaults to the business name.' : undefined}
          className={page ? 'sm:col-span-2' : undefined}
        >
          <Input
            {...control('displayName', page)}
            value={form.displayName}
            onChange={update('displayName')}
            placeholder={page ? form.businessName.trim() || 'Acme Auto Parts' : undefined}
            autoComplete="off"
          />
        </Field>
        <Field id={fieldId('description')} label="Description" error={errors.description} className={page ? 'sm:col-span-2' : undefined}>
          <Textarea {...control('description')} value={form.description} onChange={update('description')} />
        </Field>
        <Field
          id={fieldId('timeZone')}
          label="Time Zone"
          error={errors.timeZone}
          hint="The shop's calendar, working hours and dashboard go by this clock."
          className={page ? 'sm:col-span-2' : undefined}
        >
          <TimeZoneSelect
            {...control('timeZone', true)}
            value={form.timeZone}
            onChange={(timeZone) => setForm((current) => ({ ...current, timeZone }))}
          />
        </Field>
      </Section>

      {page ? (
        <Card>
          <CardHeader>
            <CardTitle id="crm-builder-features-title">Features</CardTitle>
            <CardDescription>What the shop's staff can use.</CardDescription>
          </CardHeader>
          <CardContent>
            <div role="group" aria-labelledby="crm-builder-features-title" className="grid gap-3 sm:grid-cols-2">
              {FEATURE_KEYS.map((key) => (
                <Checkbox
                  key={key}
                  id={`crm-builder-feature-${key}`}
                  label={FEATURE_LABELS[key]}
                  description={FEATURE_DESCRIPTIONS[key]}
                  checked={form.features[key]}
                  onChange={toggleFeature(key)}
                />
              ))}
            </div>
          </CardContent>
        </Card>
      ) : null}

      <Section
        variant={variant}
        title="First Admin"
        description="The account that signs in first and adds the rest of the staff."
        dialogLegend="First admin"
      >
        <Field id={fieldId('adminUsername')} label="Admin Username" error={errors.adminUsername}>
          <Input
            {...control('adminUsername')}
            value={form.adminUsername}
            onChange={update('adminUsername')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
          />
        </Field>
        <Field id={fieldId('adminDisplayName')} label="Admin Display Name" error={errors.adminDisplayName}>
          <Input {...control('adminDisplayName')} value={form.adminDisplayName} onChange={update('adminDisplayName')} autoComplete="off" />
        </Field>
        <Field
          id={fieldId('adminPin')}
          label="Admin PIN"
          hint={page ? '4 digits.' : '4 digits; the admin signs in with it.'}
          error={errors.adminPin}
          className={page ? 'sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]' : undefined}
        >
          <PinInput {...control('adminPin', true)} value={form.adminPin} onChange={update('adminPin')} autoComplete="new-password" />
        </Field>
      </Section>

      <Alert>{messages.length > 0 ? 'Please correct the highlighted fields.' : null}</Alert>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {actions}
        {/* aria-disabled while submitting keeps keyboard focus on the button. */}
        <Button type="submit" size={page ? 'lg' : undefined} disabled={!canSubmit} aria-disabled={createInstance.isPending || undefined}>
          {createInstance.isPending ? 'Creating...' : page ? 'Create CRM' : 'Create Instance'}
        </Button>
      </div>
    </form>
  );
}
