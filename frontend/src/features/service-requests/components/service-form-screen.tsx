import { EMPTY_SERVICE_REQUEST_FIELDS, type ServiceRequestView } from '@crm/projections/service-requests';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { reportFailure } from '@/lib/report-failure';
import { useCreateServiceRequest } from '../api/save-service-request';
import { SERVICE_REQUEST_TEXTS } from '../constants/service-request-texts';
import {
  type FormErrors,
  REQUIRED_IN_BROWSER,
  requestNumber,
  type ServiceRequestForm,
  submitErrorText,
  validateServiceRequestForm,
} from '../utils/service-request-form';
import { RequestSentCard } from './request-sent-card';
import { ServiceRequestFieldset } from './service-request-fields';

export interface ServiceFormPaths {
  /** Where "Back to Quote Form" leads: the instance's pipeline, where quotes are made. */
  quoteForm: string;
  list: string;
  detail: (id: string) => string;
}

/**
 * The Service Request Form (idle, submitting, success only on 201, error). Success
 * shows Success! with Submit Another, Back to Quote Form and View All Requests.
 */
export function ServiceFormScreen({ instance, paths }: { instance: string; paths: ServiceFormPaths }) {
  const [form, setForm] = useState<ServiceRequestForm>({ ...EMPTY_SERVICE_REQUEST_FIELDS });
  const [errors, setErrors] = useState<FormErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState<ServiceRequestView | null>(null);
  const create = useCreateServiceRequest(instance);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    const found = validateServiceRequestForm(form, REQUIRED_IN_BROWSER);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setError(null);
      return;
    }
    setError(null);
    create.mutate(form, {
      onSuccess: setSubmitted,
      onError: (failure) => {
        reportFailure('Service request submit failed', failure);
        setError(submitErrorText(failure));
      },
    });
  };

  const submitAnother = () => {
    setForm({ ...EMPTY_SERVICE_REQUEST_FIELDS });
    setErrors({});
    setSubmitted(null);
  };

  if (submitted) {
    return (
      <RequestSentCard>
        <p className="text-muted-foreground">
          {SERVICE_REQUEST_TEXTS.successBody}{' '}
          <Link to={paths.detail(submitted.id)} className="font-medium text-primary underline-offset-4 hover:underline">
            {requestNumber(submitted)}
          </Link>
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={submitAnother}>{SERVICE_REQUEST_TEXTS.submitAnother}</Button>
          <Link to={paths.quoteForm} className={buttonVariants({ variant: 'outline' })}>
            {SERVICE_REQUEST_TEXTS.backToQuoteForm}
          </Link>
          <Link to={paths.list} className={buttonVariants({ variant: 'outline' })}>
            {SERVICE_REQUEST_TEXTS.viewAll}
          </Link>
        </div>
      </RequestSentCard>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="grid gap-1">
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{SERVICE_REQUEST_TEXTS.formTitle}</h1>
          <p className="text-muted-foreground">{SERVICE_REQUEST_TEXTS.formSubtitle}</p>
        </div>
        <Link to={paths.list} className={buttonVariants({ variant: 'outline', className: 'self-start sm:self-auto' })}>
          {SERVICE_REQUEST_TEXTS.viewAll}
        </Link>
      </div>
      <Card>
        <CardContent className="pt-6">
          <form onSubmit={handleSubmit} noValidate className="grid gap-5">
            <ServiceRequestFieldset
              form={form}
              errors={errors}
              required={REQUIRED_IN_BROWSER}
              onChange={(patch) => setForm((current) => ({ ...current, ...patch }))}
              disabled={create.isPending}
            />
            <Alert>{error}</Alert>
            <div className="flex justify-end">
              <Button type="submit" disabled={create.isPending} className="w-full sm:w-auto">
                {create.isPending ? 'Submitting...' : 'Submit Request'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
