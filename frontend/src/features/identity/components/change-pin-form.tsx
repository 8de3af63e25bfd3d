import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldControlProps } from '@/components/ui/field';
import { PinInput } from '@/components/ui/pin-input';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useChangePin } from '../api/change-pin';
import { type ChangePinErrors, type ChangePinForm as Form, validateChangePin } from '../utils/validate-change-pin';
import { reportFailure } from '@/lib/report-failure';

const EMPTY_FORM: Form = { currentPin: '', newPin: '', confirmPin: '' };
const FIELDS: Array<{ key: keyof Form; label: string; autoComplete: string; hint?: string }> = [
  { key: 'currentPin', label: 'Current PIN', autoComplete: 'current-password' },
  { key: 'newPin', label: 'New PIN', autoComplete: 'new-password', hint: 'PIN must be exactly 4 digits.' },
  { key: 'confirmPin', label: 'Confirm New PIN', autoComplete: 'new-password' },
];
const fieldId = (key: keyof Form) => `change-pin-${key}`;

/** Changes the signed-in user's own PIN. */
export function ChangePinForm() {
  const changePin = useChangePin();
  const [form, setForm] = useState<Form>(EMPTY_FORM);
  const [errors, setErrors] = useState<ChangePinErrors>({});

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (changePin.isPending) return;
    const found = validateChangePin(form);
    setErrors(found);
    const firstInvalid = FIELDS.find(({ key }) => found[key]);
    if (firstInvalid) {
      changePin.reset();
      document.getElementById(fieldId(firstInvalid.key))?.focus();
      return;
    }
    changePin.mutate(
      { currentPin: form.currentPin, newPin: form.newPin },
      {
        onSuccess: () => {
          setForm(EMPTY_FORM);
          toast({ title: 'PIN changed', description: 'Use your new PIN the next time you sign in.' });
        },
        onError: (error) => reportFailure('Change PIN failed', error),
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-5">
      <div className="grid gap-4 sm:grid-cols-3">
        {FIELDS.map(({ key, label, autoComplete, hint }) => (
          <Field key={key} id={fieldId(key)} label={label} hint={errors[key] ? undefined : hint} error={errors[key]}>
            <PinInput
              {...fieldControlProps(fieldId(key), { hint: Boolean(hint) && !errors[key], error: errors[key] })}
              secretName={label}
              autoComplete={autoComplete}
              value={form[key]}
              onChange={(event) => {
                const value = event.target.value;
                setForm((current) => ({ ...current, [key]: value }));
                setErrors((current) => ({ ...current, [key]: undefined }));
              }}
            />
          </Field>
        ))}
      </div>
      <Alert>{changePin.isError ? errorMessage(changePin.error, 'Failed to change PIN') : null}</Alert>
      <div>
        <Button type="submit" aria-disabled={changePin.isPending || undefined}>
          {changePin.isPending ? 'Saving...' : 'Change PIN'}
        </Button>
      </div>
    </form>
  );
}
