import {
  formatDateTime,
  REPAIR_ORDER_LIMITS,
  shopSettingsInput,
  type ShopSettingsInput,
  type ShopSettingsView,
} from '@crm/projections/contract';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Field, fieldControlProps } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { reportFailure } from '@/lib/report-failure';
import { type LoadedShopSettings, useShopSettings } from '@/lib/shop-settings';
import { toast } from '@/lib/toast';
import { useUpdateShopSettings } from '../api/update-shop-settings';

type TextKey = 'shopName' | 'address' | 'phone' | 'email' | 'laborRate' | 'partsTaxRate' | 'laborTaxRate' | 'documentFooter' | 'terms';
type Form = Record<TextKey, string> & { estimateLinkDays: string };

const formFrom = (settings: ShopSettingsView): Form => ({
  shopName: settings.shopName,
  address: settings.address,
  phone: settings.phone,
  email: settings.email,
  laborRate: settings.laborRate,
  partsTaxRate: settings.partsTaxRate,
  laborTaxRate: settings.laborTaxRate,
  documentFooter: settings.documentFooter,
  terms: settings.terms,
  estimateLinkDays: String(settings.estimateLinkDays),
});

/** What changed, as the API takes it; the link's days as a whole number (what is no number is sent as typed, and refused). */
function changesOf(form: Form, saved: Form): ShopSettingsInput {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(form) as (keyof Form)[]) {
    if (form[key] === saved[key]) continue;
    changes[key] = key === 'estimateLinkDays' ? (/^\d+$/.test(form[key].trim()) ? Number(form[key].trim()) : form[key]) : form[key];
  }
  return changes as ShopSettingsInput;
}

/**
 * The shop's settings (instance admins change them; everyone else reads them): name, address,
 * phone and email on estimates and invoices, the labor rate, the tax rates for parts and
 * labor, the documents' footer and terms, and how long an estimate link stays good.
 */
export function ShopSettingsScreen({ instance, canEdit }: { instance: string; canEdit: boolean }) {
  const loaded = useShopSettings(instance);
  if (loaded.isPending) return <Spinner label="Loading shop settings..." className="py-10" />;
  if (loaded.isError) return <Alert>{errorMessage(loaded.error, 'Could not load the shop settings')}</Alert>;
  return <ShopSettingsForm key={loaded.data.settings.revision} instance={instance} loaded={loaded.data} canEdit={canEdit} />;
}

function ShopSettingsForm({ instance, loaded, canEdit }: { instance: string; loaded: LoadedShopSettings; canEdit: boolean }) {
  const saved = formFrom(loaded.settings);
  const [form, setForm] = useState<Form>(saved);
  const [problems, setProblems] = useState<Partial<Record<keyof Form, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateShopSettings(instance);
  const changes = changesOf(form, saved);
  const dirty = Object.keys(changes).length > 0;

  const text = (key: keyof Form) => ({
    ...fieldControlProps(`shop-${key}`, { error: problems[key] }),
    value: form[key],
    readOnly: !canEdit,
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [key]: event.target.value }));
      setProblems(({ [key]: _fixed, ...rest }) => rest);
    },
  });

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canEdit || update.isPending || !dirty) return;
    const checked = shopSettingsInput.safeParse(changes);
    if (!checked.success) {
      const found: Partial<Record<keyof Form, string>> = {};
      for (const issue of checked.error.issues) found[String(issue.path[0]) as keyof Form] ??= issue.message;
      setProblems(found);
      setError('Check the fields marked below.');
      return;
    }
    setError(null);
    update.mutate(
      { changes, etag: loaded.etag },
      {
        onSuccess: () => toast({ title: 'Shop settings saved' }),
        onError: (failure) => {
          reportFailure('Saving shop settings failed', failure);
          setError(errorMessage(failure, 'Could not save the shop settings'));
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Shop settings</h1>
        <p className="text-sm text-muted-foreground">
          What estimates and invoices say about the shop, and the rates its jobs are priced with.
          {loaded.settings.updatedAt ? ` Last changed ${formatDateTime(loaded.settings.updatedAt)}.` : ''}
          {canEdit ? '' : ' Only the shop’s admins change them.'}
        </p>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>On documents</CardTitle>
          <CardDescription>The header of every estimate and invoice, printed and PDF.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <Field id="shop-shopName" label="Shop name" error={problems.shopName}>
            <Input {...text('shopName')} maxLength={REPAIR_ORDER_LIMITS.shopName} autoComplete="organization" />
          </Field>
          <Field id="shop-phone" label="Phone" error={problems.phone}>
            <Input {...text('phone')} maxLength={REPAIR_ORDER_LIMITS.phone} type="tel" autoComplete="tel" />
          </Field>
          <Field id="shop-email" label="Email" error={problems.email}>
            <Input {...text('email')} maxLength={REPAIR_ORDER_LIMITS.email} type="email" autoComplete="email" />
          </Field>
          <Field id="shop-address" label="Address" error={problems.address} className="sm:col-span-2">
            <Textarea {...text('address')} maxLength={REPAIR_ORDER_LIMITS.address} rows={2} autoComplete="street-address" />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Rates</CardTitle>
          <CardDescription>
            A labor line without a rate of its own is priced at the labor rate. Tax is computed once per rate: taxable parts and fees at the
            parts rate, taxable labor at the labor rate.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-3">
          <Field id="shop-laborRate" label="Labor rate ($ per hour)" error={problems.laborRate}>
            <Input {...text('laborRate')} inputMode="decimal" maxLength={16} className="tabular-nums" />
          </Field>
          <Field id="shop-partsTaxRate" label="Parts tax rate (%)" error={problems.partsTaxRate}>
            <Input {...text('partsTaxRate')} inputMode="decimal" maxLength={8} className="tabular-nums" />
          </Field>
          <Field id="shop-laborTaxRate" label="Labor tax rate (%)" error={problems.laborTaxRate}>
            <Input {...text('laborTaxRate')} inputMode="decimal" maxLength={8} className="tabular-nums" />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Estimates and terms</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <Field
            id="shop-estimateLinkDays"
            label="Estimate links stay good for (days)"
            hint="A link sent to a customer stops working after this many days, or when it is revoked."
            error={problems.estimateLinkDays}
            className="max-w-xs"
          >
            <Input
              {...text('estimateLinkDays')}
              {...fieldControlProps('shop-estimateLinkDays', { hint: true, error: problems.estimateLinkDays })}
              inputMode="numeric"
              maxLength={3}
            />
          </Field>
          <Field id="shop-terms" label="Terms" error={problems.terms}>
            <Textarea {...text('terms')} maxLength={REPAIR_ORDER_LIMITS.terms} rows={4} />
          </Field>
          <Field id="shop-documentFooter" label="Document footer" error={problems.documentFooter}>
            <Textarea {...text('documentFooter')} maxLength={REPAIR_ORDER_LIMITS.documentFooter} rows={2} />
          </Field>
        </CardContent>
      </Card>

      <Alert>{error}</Alert>
      {canEdit ? (
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={() => setForm(saved)} aria-disabled={!dirty || undefined}>
            Undo changes
          </Button>
          <Button type="submit" aria-disabled={!dirty || update.isPending || undefined}>
            {update.isPending ? 'Saving...' : 'Save settings'}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
