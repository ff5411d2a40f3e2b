import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useApi } from '../api/context';
import type { SessionInfo } from '../api/session';
import { useSignedIn } from '../api/sign-in';
import { Field, FormError, useFocusFirstInvalid } from '../ui/form';
import { PublicPage } from '../ui/public-page';
import { plural } from '../lib/format';

export default function SignInPage() {
  const api = useApi();
  const signedIn = useSignedIn();
  const [params] = useSearchParams();
  const form = useRef<HTMLFormElement>(null);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => api.json<SessionInfo>('POST', '/api/v1/auth/sessions', { email, password }),
    onSuccess: signedIn,
  });
  const error = signIn.error instanceof ApiError ? signIn.error : null;
  useFocusFirstInvalid(form, signIn.error);
  return (
    <PublicPage title="Sign in">
      {params.get('reset') === 'done' && (
        <p className="notice" role="status">
          Your password was changed. Sign in with the new one.
        </p>
      )}
      <form
        ref={form}
        onSubmit={(e) => {
          e.preventDefault();
          signIn.mutate();
        }}
      >
        <FormError
          error={
            signIn.error && error?.status === 429
              ? new Error(
                  `Too many attempts. Try again in ${error.retryAfterSeconds === undefined || error.retryAfterSeconds === null ? 'a few seconds' : plural(error.retryAfterSeconds, 'second')}.`,
                )
              : signIn.error
          }
          fields={['email', 'password']}
        />
        <Field label="Email" name="email" error={error} required>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="email"
              autoComplete="username"
              required
              value={email}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password" name="password" error={error} required>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p>
        <Link to="/reset-password">Forgot your password?</Link>
      </p>
    </PublicPage>
  );
}
