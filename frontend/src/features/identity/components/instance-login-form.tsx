import { SESSION_ENDED_MESSAGES } from '@crm/projections/contract';
import type { CurrentUserView } from '@crm/projections/identity';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldControlProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PinInput } from '@/components/ui/pin-input';
import { forgetSessionEnded, sessionEndedReason } from '@/lib/session-ended';
import { useLogin } from '../api/login';
import { loginErrorMessage } from '../utils/login-error-message';
import { type LoginErrors, validateLogin } from '../utils/validate-login';

/** Username and PIN for one instance (`instance` is its subdomain slug). */
export function InstanceLoginForm({ instance, onSuccess }: { instance: string; onSuccess: (user: CurrentUserView) => void }) {
  const login = useLogin();
  const [username, setUsername] = useState('');
  const [pin, setPin] = useState('');
  const [errors, setErrors] = useState<LoginErrors>({});
  // A session the server ended (a lock, a closed CRM) is said here, not dropped in silence.
  const [ended] = useState(sessionEndedReason);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    const found = validateLogin({ username, pin });
    setErrors(found);
    if (found.username || found.pin) {
      login.reset();
      document.getElementById(found.username ? 'login-username' : 'login-pin')?.focus();
      return;
    }
    login.mutate(
      { username: username.trim(), pin, instance },
      {
        onSuccess: (user) => {
          forgetSessionEnded();
          onSuccess(user);
        },
      },
    );
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="grid gap-5">
      {ended ? (
        <Alert variant="info" data-session-ended>
          {SESSION_ENDED_MESSAGES[ended]}
        </Alert>
      ) : null}
      <Field id="login-username" label="Username" error={errors.username}>
        <Input
          {...fieldControlProps('login-username', { error: errors.username })}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            setErrors((current) => ({ ...current, username: undefined }));
          }}
        />
      </Field>
      <Field id="login-pin" label="PIN" error={errors.pin}>
        <PinInput
          {...fieldControlProps('login-pin', { error: errors.pin })}
          name="pin"
          autoComplete="current-password"
          required
          value={pin}
          onChange={(event) => {
            setPin(event.target.value);
            setErrors((current) => ({ ...current, pin: undefined }));
          }}
        />
      </Field>
      <Alert>{login.isError ? loginErrorMessage(login.error) : null}</Alert>
      <Button type="submit" size="lg" className="w-full" aria-disabled={login.isPending || undefined}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
