import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { ApiError } from '@/lib/api-client';
import { useLoginSuperAdmin } from '../api/login-super-admin';

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid username or password';
export const LOGIN_FAILED_MESSAGE = 'Login failed. Please try again.';

/** What the form says about a failed sign-in. */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return INVALID_CREDENTIALS_MESSAGE;
    // Throttled: the server says when to try again.
    if (error.status === 429) return error.message;
  }
  return LOGIN_FAILED_MESSAGE;
}

export function SuperAdminLoginForm({ onSuccess }: { onSuccess: () => void }) {
  const login = useLoginSuperAdmin();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    login.mutate({ username, password }, { onSuccess });
  };

  return (
    <form onSubmit={handleSubmit} className="grid gap-5">
      <Field id="super-admin-username" label="Username">
        <Input
          id="super-admin-username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </Field>
      <Field id="super-admin-password" label="Password">
        <PasswordInput
          id="super-admin-password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Alert>{login.isError ? loginErrorMessage(login.error) : null}</Alert>
      <Button type="submit" size="lg" className="w-full" aria-disabled={login.isPending || undefined}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
