import type { UserView } from '@crm/projections/identity';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldControlProps } from '@/components/ui/field';
import { PinInput } from '@/components/ui/pin-input';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { sanitizePin } from '@/lib/sanitize-pin';
import { newPinError } from '@/lib/validate-new-user';
import { reportFailure } from '@/lib/report-failure';

/**
 * "New PIN" form for someone else's account (the super admin's, or an admin's for staff).
 * `onReset` makes the call; `onDone` closes the form (after a reset or on Cancel).
 */
export function ResetPinForm({
  user,
  id,
  onReset,
  onDone,
}: {
  user: Pick<UserView, 'id' | 'username'>;
  id: string;
  onReset: (pin: string) => Promise<unknown>;
  onDone: () => void;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string>();
  const resetPin = useMutation({ mutationFn: onReset });
  const inputId = `${id}-pin`;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (resetPin.isPending) return;
    const invalid = newPinError(pin);
    setError(invalid);
    resetPin.reset();
    if (invalid) {
      document.getElementById(inputId)?.focus();
      return;
    }
    resetPin.mutate(pin, {
      onSuccess: () => {
        toast({ title: 'PIN reset', description: `${user.username} can sign in with the new PIN.` });
        onDone();
      },
      onError: (failure) => reportFailure('Reset PIN failed', failure),
    });
  };

  const serverError = resetPin.isError ? errorMessage(resetPin.error, 'Failed to reset the PIN') : null;

  return (
    <form
      id={id}
      onSubmit={handleSubmit}
      noValidate
      aria-label={`Reset PIN for ${user.username}`}
      className="grid gap-3 rounded-lg border bg-muted/40 p-3"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <Field id={inputId} label="New PIN" hint="4 digits. Signs the user out everywhere." error={error} className="flex-1">
          <PinInput
            {...fieldControlProps(inputId, { hint: true, error })}
            value={pin}
            onChange={(event) => setPin(sanitizePin(event.target.value))}
            autoComplete="new-password"
            required
          />
        </Field>
        {/* Aligned with the input, above the hint. */}
        <div className="flex gap-2 sm:mb-6">
          <Button type="button" variant="outline" onClick={onDone} className="flex-1 sm:flex-none">
            Cancel
          </Button>
          <Button type="submit" aria-disabled={resetPin.isPending || undefined} className="flex-1 sm:flex-none">
            {resetPin.isPending ? 'Saving...' : 'Save PIN'}
          </Button>
        </div>
      </div>
      <Alert>{serverError}</Alert>
    </form>
  );
}
