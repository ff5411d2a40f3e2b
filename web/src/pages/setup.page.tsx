import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { ApiError } from '../api/client';
import { useApi } from '../api/context';
import type { SessionInfo } from '../api/session';
import { useSignedIn } from '../api/sign-in';
import { Field, FormError, useFocusFirstInvalid } from '../ui/form';
import { PublicPage } from '../ui/public-page';

const FIELDS = ['organization_name', 'name', 'email', 'password'] as const;
type SetupForm = Record<(typeof FIELDS)[number], string>;
const LABELS: Record<keyof SetupForm, [string, string, string]> = {
  organization_name: ['Organization name', 'text', 'organization'],
  name: ['Your name', 'text', 'name'],
  email: ['Email', 'email', 'email'],
  password: ['Password', 'password', 'new-password'],
};

/** First run: creates the organization and its owner, and signs the owner in. */
export default function SetupPage() {
  const api = useApi();
  const signedIn = useSignedIn();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<SetupForm>({ organization_name: '', name: '', email: '', password: '' });
  const needed = useQuery({
    queryKey: ['setup'],
    queryFn: () => api.json<{ needed: boolean }>('GET', '/api/v1/auth/setup'),
  });
  const setup = useMutation({
    mutationFn: () => api.json<SessionInfo>('POST', '/api/v1/auth/setup', values),
    onSuccess: signedIn,
  });
  if (needed.data && !needed.data.needed && !setup.isSuccess) return <Navigate to="/sign-in" replace />;
  const error = setup.error instanceof ApiError ? setup.error : null;
  useFocusFirstInvalid(form, setup.error);
  return (
    <PublicPage title="Set up Tocsin">
      <p>Create your organization and its owner account. You can invite your team afterwards.</p>
      <form
        ref={form}
        onSubmit={(e) => {
          e.preventDefault();
          setup.mutate();
        }}
      >
        <FormError error={setup.error} fields={[...FIELDS]} />
        {FIELDS.map((name) => (
          <Field
            key={name}
            label={LABELS[name][0]}
            name={name}
            error={error}
            required
            hint={name === 'password' ? 'At least 10 characters.' : undefined}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                type={LABELS[name][1]}
                autoComplete={LABELS[name][2]}
                required
                value={values[name]}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setValues({ ...values, [name]: e.target.value })}
              />
            )}
          </Field>
        ))}
        <button type="submit" className="primary" disabled={setup.isPending}>
          Create organization
        </button>
      </form>
    </PublicPage>
  );
}
