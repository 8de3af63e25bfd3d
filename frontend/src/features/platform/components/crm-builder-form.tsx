import { FEATURE_KEYS, type FeatureKey, normalizeSubdomain } from '@crm/projections/platform';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { PinInput } from '@/components/ui/pin-input';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useCreateCrmInstance } from '../api/create-crm-instance';
import { shopAddresses } from '../utils/shop-addresses';
import { FEATURE_DESCRIPTIONS, FEATURE_LABELS } from '../constants/feature-labels';
import { sanitizePin } from '@/lib/sanitize-pin';
import {
  type CrmBuilderForm as BuilderForm,
  EMPTY_CRM_BUILDER_FORM,
  effectiveSubdomain,
  validateCrmBuilderForm,
} from '../utils/validate-create-instance';
import { reportFailure } from '@/lib/report-failure';

type BuilderErrors = Partial<Record<keyof BuilderForm, string>>;
type TextField = Exclude<keyof BuilderForm, 'features'>;

const fieldId = (field: keyof BuilderForm) => `crm-builder-${field}`;

/** The full create-instance page's form. `origin` is where the app is reached (the shop's address starts with it). */
export function CrmBuilderForm({ origin, onCreated }: { origin: string; onCreated: () => void }) {
  const [form, setForm] = useState<BuilderForm>(EMPTY_CRM_BUILDER_FORM);
  const [errors, setErrors] = useState<BuilderErrors>({});
  const createInstance = useCreateCrmInstance();

  const subdomain = effectiveSubdomain(form);
  const addresses = shopAddresses(origin, subdomain || 'yourshop');
  const hasBusinessName = form.businessName.trim() !== '';

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
    if (!hasBusinessName || createInstance.isPending) return;
    const result = validateCrmBuilderForm(form);
    if (!result.ok) {
      setErrors(result.errors);
      document.getElementById(fieldId(result.firstField))?.focus();
      return;
    }
    setErrors({});
    createInstance.mutate(result.value, {
      onSuccess: () => {
        toast({ title: 'Success', description: 'CRM system created successfully!' });
        onCreated();
      },
      onError: (error) => {
        reportFailure('Create CRM failed', error);
        toast({ title: 'Error', description: errorMessage(error, 'Failed to create CRM'), variant: 'destructive' });
      },
    });
  };

  const invalid = (field: keyof BuilderForm) =>
    errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': `${fieldId(field)}-error` } : {};
  const messages = [...new Set(Object.values(errors))];

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>Basic Information</CardTitle>
          <CardDescription>How the shop is named and where its CRM lives.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <Field id={fieldId('businessName')} label="Business Name" error={errors.businessName}>
            <Input
              id={fieldId('businessName')}
              value={form.businessName}
              onChange={update('businessName')}
              placeholder="Acme Auto Parts"
              autoComplete="organization"
              required
              {...invalid('businessName')}
            />
          </Field>
          <Field
            id={fieldId('subdomain')}
            label="Subdomain"
            error={errors.subdomain}
            hint={
              <>
                Lower-case letters and digits only. Staff sign in at:
                <span className="mt-1 grid gap-0.5">
                  <span className="font-mono break-all text-foreground" data-testid="subdomain-preview">
                    {addresses.short}
                  </span>
                  <span>
                    or <span className="font-mono break-all text-foreground">{addresses.signIn}</span>
                  </span>
                </span>
              </>
            }
          >
            <div className="flex items-stretch">
              {/* The origin on wider screens; phones read the whole address in the hint below. */}
              <span
                aria-hidden="true"
                className="flex shrink-0 items-center rounded-l-md border border-r-0 border-input bg-muted px-3 font-mono text-sm text-muted-foreground"
              >
                <span className="hidden sm:inline">{origin.replace(/\/+$/, '')}</span>/
              </span>
              <Input
                id={fieldId('subdomain')}
                value={form.subdomain}
                onChange={update('subdomain')}
                placeholder={normalizeSubdomain(form.businessName) || 'yourshop'}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                className="min-w-0 rounded-l-none"
                aria-invalid={errors.subdomain ? true : undefined}
                aria-describedby={[`${fieldId('subdomain')}-hint`, errors.subdomain ? `${fieldId('subdomain')}-error` : '']
                  .join(' ')
                  .trim()}
              />
            </div>
          </Field>
          <Field id={fieldId('displayName')} label="Display Name" hint="Defaults to the business name.">
            <Input
              id={fieldId('displayName')}
              value={form.displayName}
              onChange={update('displayName')}
              placeholder={form.businessName.trim() || 'Acme Auto Parts'}
              autoComplete="off"
              aria-describedby={`${fieldId('displayName')}-hint`}
            />
          </Field>
          <Field id={fieldId('description')} label="Description">
            <Textarea id={fieldId('description')} value={form.description} onChange={update('description')} />
          </Field>
        </CardContent>
      </Card>

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

      <Card>
        <CardHeader>
          <CardTitle>First Admin</CardTitle>
          <CardDescription>The account that signs in first and adds the rest of the staff.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <Field id={fieldId('adminUsername')} label="Admin Username" error={errors.adminUsername}>
            <Input
              id={fieldId('adminUsername')}
              value={form.adminUsername}
              onChange={update('adminUsername')}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              {...invalid('adminUsername')}
            />
          </Field>
          <Field id={fieldId('adminDisplayName')} label="Admin Display Name" error={errors.adminDisplayName}>
            <Input
              id={fieldId('adminDisplayName')}
              value={form.adminDisplayName}
              onChange={update('adminDisplayName')}
              autoComplete="off"
              {...invalid('adminDisplayName')}
            />
          </Field>
          <Field
            id={fieldId('adminPin')}
            label="Admin PIN"
            hint="4 digits."
            error={errors.adminPin}
            className="sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]"
          >
            <PinInput
              id={fieldId('adminPin')}
              value={form.adminPin}
              onChange={update('adminPin')}
              autoComplete="new-password"
              aria-invalid={errors.adminPin ? true : undefined}
              aria-describedby={[`${fieldId('adminPin')}-hint`, errors.adminPin ? `${fieldId('adminPin')}-error` : ''].join(' ').trim()}
            />
          </Field>
        </CardContent>
      </Card>

      <Alert>{messages.length > 0 ? 'Please correct the highlighted fields.' : null}</Alert>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {/* aria-disabled while submitting keeps keyboard focus on the button. */}
        <Button type="submit" size="lg" disabled={!hasBusinessName} aria-disabled={createInstance.isPending || undefined}>
          {createInstance.isPending ? 'Creating...' : 'Create CRM'}
        </Button>
      </div>
    </form>
  );
}
