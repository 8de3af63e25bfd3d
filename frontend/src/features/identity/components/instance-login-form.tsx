import { SESSION_ENDED_MESSAGES } from '@crm/projections/contract';
import type { CurrentUserView } from '@crm/projections/identity';
import { useState } from 'react';
import { LoginForm } from '@/components/login-form';
import { Alert } from '@/components/ui/alert';
import { forgetSessionEnded, sessionEndedReason } from '@/lib/session-ended';
import { useLogin } from '../api/login';
import { loginErrorMessage } from '../utils/login-error-message';
import { validateLogin } from '../utils/validate-login';

/** Username and PIN for one instance (`instance` is its subdomain slug). */
export function InstanceLoginForm({ instance, onSuccess }: { instance: string; onSuccess: (user: CurrentUserView) => void }) {
  const login = useLogin();
  // A session the server ended (a lock, a closed CRM) is said here, not dropped in silence.
  const [ended] = useState(sessionEndedReason);

  return (
    <LoginForm
      idPrefix="login"
      secret="pin"
      attempt={login}
      errorMessage={loginErrorMessage}
      validate={({ username, secret }) => {
        const found = validateLogin({ username, pin: secret });
        return { username: found.username, secret: found.pin };
      }}
      notice={
        ended ? (
          <Alert variant="info" data-session-ended>
            {SESSION_ENDED_MESSAGES[ended]}
          </Alert>
        ) : null
      }
      onSubmit={({ username, secret }) =>
        login.mutate(
          { username: username.trim(), pin: secret, instance },
          {
            onSuccess: (user) => {
              forgetSessionEnded();
              onSuccess(user);
            },
          },
        )
      }
    />
  );
}
