import { type FormEvent, type ReactNode, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, fieldControlProps } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { PinInput } from '@/components/ui/pin-input';
import { ApiError } from '@/lib/api-client';

export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';

export interface LoginErrors {
  username?: string | undefined;
  secret?: string | undefined;
}

/** What a sign-in request looks like to the form: a react-query mutation's state. */
export interface LoginAttempt {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  reset: () => void;
}

/**
 * What a login form says about a failed sign-in: `invalid` for wrong credentials (401), the
 * server's own words for the statuses in `inServerWords` that carry them (what the user can act
 * on), a plain retry message for anything else.
 */
export function loginFailureMessage(error: unknown, invalid: string, inServerWords: readonly number[]): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return invalid;
    if (inServerWords.includes(error.status) && error.problem?.message) return error.message;
  }
  return LOGIN_FAILED_MESSAGE;
}

/**
 * The sign-in form of staff (username and PIN) and of the super admin (username and
 * password): the same boxes, checks and messages, told apart by their ids and their secret.
 * Without `validate` the browser's own required check stands; with it, the form checks and
 * focuses the first box in error.
 */
export function LoginForm({
  idPrefix,
  secret,
  attempt,
  errorMessage,
  validate,
  notice,
  onSubmit,
}: {
  idPrefix: string;
  secret: 'pin' | 'password';
  attempt: LoginAttempt;
  errorMessage: (error: unknown) => string;
  validate?: (values: { username: string; secret: string }) => LoginErrors;
  /** Said above the boxes (why an earlier session ended). */
  notice?: ReactNode;
  onSubmit: (values: { username: string; secret: string }) => void;
}) {
  const [username, setUsername] = useState('');
  const [secretValue, setSecret] = useState('');
  const [errors, setErrors] = useState<LoginErrors>({});
  const usernameId = `${idPrefix}-username`;
  const secretId = `${idPrefix}-${secret}`;
  const SecretInput = secret === 'pin' ? PinInput : PasswordInput;

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (attempt.isPending) return;
    if (validate) {
      const found = validate({ username, secret: secretValue });
      setErrors(found);
      if (found.username || found.secret) {
        attempt.reset();
        document.getElementById(found.username ? usernameId : secretId)?.focus();
        return;
      }
    }
    onSubmit({ username, secret: secretValue });
  };

  return (
    <form onSubmit={handleSubmit} noValidate={validate ? true : undefined} className="grid gap-5">
      {notice}
      <Field id={usernameId} label="Username" error={errors.username}>
        <Input
          {...fieldControlProps(usernameId, { error: errors.username })}
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
      <Field id={secretId} label={secret === 'pin' ? 'PIN' : 'Password'} error={errors.secret}>
        <SecretInput
          {...fieldControlProps(secretId, { error: errors.secret })}
          name={secret}
          autoComplete="current-password"
          required
          value={secretValue}
          onChange={(event) => {
            setSecret(event.target.value);
            setErrors((current) => ({ ...current, secret: undefined }));
          }}
        />
      </Field>
      <Alert>{attempt.isError ? errorMessage(attempt.error) : null}</Alert>
      <Button type="submit" size="lg" className="w-full" aria-disabled={attempt.isPending || undefined}>
        {attempt.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
