import { LoginForm, loginFailureMessage } from '@/components/login-form';
import { useLoginSuperAdmin } from '../api/login-super-admin';

/** What the form says about a failed sign-in: throttled, the server says when to try again. */
export function loginErrorMessage(error: unknown): string {
  return loginFailureMessage(error, 'Invalid username or password', [429]);
}

export function SuperAdminLoginForm({ onSuccess }: { onSuccess: () => void }) {
  const login = useLoginSuperAdmin();
  return (
    <LoginForm
      idPrefix="super-admin"
      secret="password"
      attempt={login}
      errorMessage={loginErrorMessage}
      onSubmit={({ username, secret }) => login.mutate({ username, password: secret }, { onSuccess })}
    />
  );
}
