import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useApi } from '../api/context';
import type { SessionInfo } from '../api/session';
import { useSignedIn } from '../api/sign-in';
import { Field, FormError } from '../ui/form';
import { PublicPage } from '../ui/public-page';

interface Lookup {
  organization: { name: string };
  email: string;
  role: string;
  existing_user: boolean;
}

/** Opening the mailed link accepts nothing (mail scanners fetch links); the button does. */
export default function AcceptInvitationPage() {
  const api = useApi();
  const signedIn = useSignedIn();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const lookup = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => api.json<Lookup>('GET', `/api/v1/auth/invitations/lookup?token=${encodeURIComponent(token)}`),
    enabled: token !== '',
  });
  const accept = useMutation({
    mutationFn: () =>
      api.json<SessionInfo>('POST', '/api/v1/auth/invitations/accept', {
        token,
        password,
        ...(lookup.data?.existing_user ? {} : { name }),
      }),
    onSuccess: signedIn,
  });
  const error = accept.error instanceof ApiError ? accept.error : null;
  if (!token || lookup.isError) {
    return (
      <PublicPage title="Invitation">
        <p role="alert">
          {lookup.error instanceof Error ? lookup.error.message : 'This link has no invitation token.'} Ask for a new
          invitation.
        </p>
      </PublicPage>
    );
  }
  if (!lookup.data) {
    return (
      <PublicPage title="Invitation">
        <p role="status">Loading…</p>
      </PublicPage>
    );
  }
  const invite = lookup.data;
  return (
    <PublicPage title={`Join ${invite.organization.name}`}>
      <p>
        You are invited as <strong>{invite.role}</strong> with {invite.email}.
        {invite.existing_user ? ' You already have an account: confirm with its password.' : ''}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          accept.mutate();
        }}
      >
        <FormError error={accept.error} fields={['name', 'password']} />
        {!invite.existing_user && (
          <Field label="Your name" name="name" error={error}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                autoComplete="name"
                value={name}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
        )}
        <Field
          label={invite.existing_user ? 'Your password' : 'Choose a password'}
          name="password"
          error={error}
          required
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="password"
              autoComplete={invite.existing_user ? 'current-password' : 'new-password'}
              required
              value={password}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="primary" disabled={accept.isPending}>
          Accept and sign in
        </button>
      </form>
    </PublicPage>
  );
}
