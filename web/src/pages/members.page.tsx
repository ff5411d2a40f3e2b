import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';
import { Field, FormError } from '../ui/form';

const ROLES = ['viewer', 'member', 'admin', 'owner'] as const;

export default function MembersPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const admin = can(session.role).admin;
  const members = useQuery({
    queryKey: ['members'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization/members', {})),
  });
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<(typeof ROLES)[number]>('member');
  const invite = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/auth/organization/members', {
          params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
          body: { email, role, ...(name ? { name } : {}) },
        }),
      ),
    onSuccess: () => {
      setEmail('');
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const invitationAction = useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'resend' | 'revoke' }) =>
      action === 'resend'
        ? unwrap(
            await api.client.POST('/api/v1/auth/organization/invitations/{invitation_id}/resend', {
              params: { path: { invitation_id: id } },
            }),
          )
        : unwrap(
            await api.client.DELETE('/api/v1/auth/organization/invitations/{invitation_id}', {
              params: { path: { invitation_id: id } },
            }),
          ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['members'] }),
  });
  const changeRole = useMutation({
    mutationFn: async ({ userId, role: next }: { userId: string; role: (typeof ROLES)[number] }) =>
      unwrap(
        await api.client.PATCH('/api/v1/auth/organization/members/{user_id}', {
          params: { path: { user_id: userId } },
          body: { role: next },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['members'] }),
  });
  const error = invite.error instanceof ApiError ? invite.error : null;
  return (
    <>
      <h1>Members</h1>
      {members.isError && <p role="alert">{members.error.message}</p>}
      {members.data && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                {admin && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((m) => (
                <tr key={'user_id' in m ? m.user_id : m.invitation_id}>
                  <td>{m.name ?? '—'}</td>
                  <td>{m.email}</td>
                  <td>
                    {admin && 'user_id' in m && m.user_id !== session.user.id ? (
                      <label>
                        <span className="visually-hidden">Role of {m.email}</span>
                        <select
                          value={m.role}
                          disabled={changeRole.isPending}
                          onChange={(e) =>
                            changeRole.mutate({ userId: m.user_id, role: e.target.value as (typeof ROLES)[number] })
                          }
                        >
                          {ROLES.filter((r) => r !== 'owner' || session.role === 'owner' || m.role === 'owner').map(
                            (r) => (
                              <option key={r} value={r}>
                                {r}
                              </option>
                            ),
                          )}
                        </select>
                      </label>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td>
                    {m.status === 'active'
                      ? 'email_verified' in m && m.email_verified
                        ? 'Active'
                        : 'Active, email not verified'
                      : `Invited ${'invited_at' in m ? dateTime(m.invited_at) : ''}`}
                  </td>
                  {admin && (
                    <td>
                      {'invitation_id' in m && (
                        <>
                          <button
                            type="button"
                            onClick={() => invitationAction.mutate({ id: m.invitation_id, action: 'resend' })}
                          >
                            Resend<span className="visually-hidden"> invitation to {m.email}</span>
                          </button>{' '}
                          <button
                            type="button"
                            className="danger"
                            onClick={() => invitationAction.mutate({ id: m.invitation_id, action: 'revoke' })}
                          >
                            Revoke<span className="visually-hidden"> invitation to {m.email}</span>
                          </button>
                        </>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {invitationAction.error && <p role="alert">{invitationAction.error.message}</p>}
      {changeRole.error && <p role="alert">{changeRole.error.message}</p>}
      {admin && (
        <section aria-labelledby="invite">
          <h2 id="invite">Invite someone</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              invite.mutate();
            }}
          >
            <FormError error={invite.error} fields={['email', 'name', 'role']} />
            {invite.isSuccess && <p role="status">Invitation sent.</p>}
            <Field label="Email" name="email" error={error} required>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  type="email"
                  required
                  value={email}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(e) => setEmail(e.target.value)}
                />
              )}
            </Field>
            <Field label="Name" name="name" error={error}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  value={name}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </Field>
            <Field label="Role" name="role" error={error} hint="Viewers can look at everything and change nothing.">
              {({ id, describedBy }) => (
                <select
                  id={id}
                  value={role}
                  aria-describedby={describedBy}
                  onChange={(e) => setRole(e.target.value as typeof role)}
                >
                  {ROLES.filter((r) => r !== 'owner' || session.role === 'owner').map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <button type="submit" className="primary" disabled={invite.isPending}>
              Send invitation
            </button>
          </form>
        </section>
      )}
    </>
  );
}
