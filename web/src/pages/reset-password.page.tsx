import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useApi } from '../api/context';
import { Field, FormError } from '../ui/form';
import { PublicPage } from '../ui/public-page';

/** Without a token: asks for the mail. With the mailed one-time token: sets the new password. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ChoosePassword token={token} /> : <RequestLink />;
}

function RequestLink() {
  const api = useApi();
  const [email, setEmail] = useState('');
  const request = useMutation({
    mutationFn: () => api.json('POST', '/api/v1/auth/password-reset', { email }),
  });
  const error = request.error instanceof ApiError ? request.error : null;
  return (
    <PublicPage title="Reset your password">
      {request.isSuccess ? (
        <p role="status">If an account uses {email}, a link to choose a new password is on its way. It works once.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            request.mutate();
          }}
        >
          <FormError error={request.error} fields={['email']} />
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
          <button type="submit" className="primary" disabled={request.isPending}>
            Send the link
          </button>
        </form>
      )}
      <p>
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </PublicPage>
  );
}

function ChoosePassword({ token }: { token: string }) {
  const api = useApi();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const confirm = useMutation({
    mutationFn: () => api.json('POST', '/api/v1/auth/password-reset/confirm', { token, password }),
    onSuccess: () => void navigate('/sign-in?reset=done', { replace: true }),
  });
  const error = confirm.error instanceof ApiError ? confirm.error : null;
  return (
    <PublicPage title="Choose a new password">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          confirm.mutate();
        }}
      >
        <FormError error={confirm.error} fields={['password']} />
        <Field label="New password" name="password" error={error} required hint="At least 10 characters.">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="password"
              autoComplete="new-password"
              required
              value={password}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={confirm.isPending}>
          Set the password
        </button>
      </form>
    </PublicPage>
  );
}
