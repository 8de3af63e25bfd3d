import { EMPTY_SERVICE_REQUEST_FIELDS, HONEYPOT_FIELD } from '@crm/projections/service-requests';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { usePageTitle } from '@/lib/use-page-title';
import { usePublicRequestPage, useSubmitPublicRequest } from '../api/public-request';
import { SERVICE_REQUEST_TEXTS } from '../constants/service-request-texts';
import { type FormErrors, type ServiceRequestForm, submitErrorText, validateServiceRequestForm } from '../utils/service-request-form';
import { RequestSentCard } from './request-sent-card';
import { ServiceRequestFieldset } from './service-request-fields';

/** A shop's customer needs a name and an email for the shop to answer; the vehicle helps. */
const PUBLIC_REQUIRED = ['customerName', 'contactEmail', 'vehicleType'] as const;

/**
 * /{subdomain}/request: a shop's customer asks for a service without signing in, when the
 * shop has its public page on. A hidden field catches form-filling bots (the server drops
 * what fills it); the server limits how many requests one visitor and one shop get.
 */
export function PublicRequestScreen({ subdomain }: { subdomain: string }) {
  const page = usePublicRequestPage(subdomain);
  const submit = useSubmitPublicRequest(subdomain);
  const [form, setForm] = useState<ServiceRequestForm>({ ...EMPTY_SERVICE_REQUEST_FIELDS });
  const [honeypot, setHoneypot] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  usePageTitle(page.data ? `${SERVICE_REQUEST_TEXTS.publicTitle} · ${page.data.shopName}` : SERVICE_REQUEST_TEXTS.publicTitle);

  if (page.isPending) return <Spinner label="Loading..." className="py-16" />;
  if (page.isError) {
    const missing = page.error instanceof ApiError && page.error.status === 404;
    return (
      <section className="mx-auto grid max-w-md gap-3 py-16 text-center">
        <h1 className="text-2xl font-semibold">{missing ? 'No such CRM' : SERVICE_REQUEST_TEXTS.publicTitle}</h1>
        <p className="text-muted-foreground">
          {missing ? `There is no shop at "${subdomain}". Check the address you were given.` : SERVICE_REQUEST_TEXTS.networkError}
        </p>
      </section>
    );
  }

  const { shopName, enabled } = page.data;
  if (!enabled) {
    return (
      <section className="mx-auto grid max-w-md gap-3 py-16 text-center">
        <h1 className="text-2xl font-semibold">{shopName}</h1>
        <p className="text-muted-foreground">{SERVICE_REQUEST_TEXTS.publicOff}</p>
      </section>
    );
  }

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submit.isPending) return;
    const found = validateServiceRequestForm(form, PUBLIC_REQUIRED);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setError(null);
    submit.mutate(
      { ...form, [HONEYPOT_FIELD]: honeypot },
      {
        onSuccess: () => setSent(true),
        onError: (failure) => setError(submitErrorText(failure)),
      },
    );
  };

  if (sent) {
    return (
      <RequestSentCard>
        <p className="text-muted-foreground">{SERVICE_REQUEST_TEXTS.publicSuccess}</p>
        <Button
          variant="outline"
          onClick={() => {
            setForm({ ...EMPTY_SERVICE_REQUEST_FIELDS });
            setErrors({});
            setSent(false);
          }}
        >
          {SERVICE_REQUEST_TEXTS.submitAnother}
        </Button>
      </RequestSentCard>
    );
  }

  return (
    <Card className="mx-auto w-full max-w-2xl">
      <CardHeader>
        <p className="text-sm font-medium text-primary">{shopName}</p>
        <h1 className="text-2xl leading-tight font-semibold">{SERVICE_REQUEST_TEXTS.publicTitle}</h1>
        <CardDescription>Tell us about your vehicle and what it needs. We will get back to you by email.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={handleSubmit} noValidate className="grid gap-5">
          <ServiceRequestFieldset
            idPrefix="public-sr"
            form={form}
            errors={errors}
            required={PUBLIC_REQUIRED}
            onChange={(patch) => setForm((current) => ({ ...current, ...patch }))}
            disabled={submit.isPending}
          />
          {/* The honeypot: out of sight and out of the tab order, so only a bot fills it. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label htmlFor="public-sr-website">Website</label>
            <input
              id="public-sr-website"
              name={HONEYPOT_FIELD}
              type="text"
              tabIndex={-1}
              autoComplete="off"
              value={honeypot}
              onChange={(event) => setHoneypot(event.target.value)}
            />
          </div>
          <Alert>{error}</Alert>
          <Button type="submit" disabled={submit.isPending} className="w-full sm:w-auto sm:justify-self-end">
            {submit.isPending ? 'Sending...' : 'Send Request'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
