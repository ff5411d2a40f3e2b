import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';

export default function SettingsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const org = useQuery({
    queryKey: ['organization'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization', {})),
  });
  const update = useMutation({
    mutationFn: async (emailAlerts: boolean) =>
      unwrap(await api.client.PATCH('/api/v1/auth/organization', { body: { email_alerts_enabled: emailAlerts } })),
    onSuccess: (o) => queryClient.setQueryData(['organization'], o),
  });
  const o = org.data;
  return (
    <>
      <h1>Organization settings</h1>
      {org.isError && <p role="alert">{org.error.message}</p>}
      <dl className="facts">
        <div>
          <dt>Name</dt>
          <dd>{o?.name ?? session.organization.name}</dd>
        </div>
        <div>
          <dt>Plan</dt>
          <dd>{o?.plan ?? session.organization.plan}</dd>
        </div>
        {o && (
          <div>
            <dt>Created</dt>
            <dd>{dateTime(o.created_at)}</dd>
          </div>
        )}
      </dl>
      {o && (
        <label className="check-label">
          <input
            type="checkbox"
            checked={o.email_alerts_enabled}
            disabled={!can(session.role).admin || update.isPending}
            onChange={(e) => update.mutate(e.target.checked)}
          />{' '}
          Email every verified member when a monitor goes down or recovers (organization-wide email)
        </label>
      )}
      {update.error && <p role="alert">{update.error.message}</p>}
    </>
  );
}
