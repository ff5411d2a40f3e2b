import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { dateTime } from '../lib/format';
import { Field, FormError } from '../ui/form';
import { Card, ErrorState, PageHeader } from '../ui/kit';

type SettingsPatch = { email_alerts_enabled?: boolean; default_region?: string };

export default function SettingsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const admin = can(session.role).admin;
  const org = useQuery({
    queryKey: ['organization'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization', {})),
  });
  const regions = useQuery({
    queryKey: ['regions'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/regions', {})),
  });
  const update = useMutation({
    mutationFn: async (body: SettingsPatch) => unwrap(await api.client.PATCH('/api/v1/auth/organization', { body })),
    onSuccess: (o) => queryClient.setQueryData(['organization'], o),
  });
  const o = org.data;
  const error = update.error instanceof ApiError ? update.error : null;
  return (
    <>
      <PageHeader
        title="Organization settings"
        actions={
          admin && (
            <Link className="button" to="/settings/audit-log">
              Audit log
            </Link>
          )
        }
        lead={admin && <span className="muted">The audit log holds every change, sign-in and key event.</span>}
      />
      {org.isError && <ErrorState message={org.error.message} onRetry={() => void org.refetch()} />}
      <div className="card-stack">
        <Card title="Organization">
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
        </Card>
        {o && (
          <Card title="Alerts and defaults">
            <form className="form settings" onSubmit={(e) => e.preventDefault()}>
              <FormError error={update.error} fields={['email_alerts_enabled', 'default_region']} />
              <Field
                label="Default region"
                name="default_region"
                error={error}
                hint="Where a new monitor runs when none of its regions is chosen. Existing monitors keep theirs."
              >
                {({ id, describedBy, invalid }) => (
                  <select
                    id={id}
                    aria-describedby={describedBy}
                    aria-invalid={invalid || undefined}
                    value={o.default_region}
                    disabled={!admin || update.isPending}
                    onChange={(e) => update.mutate({ default_region: e.target.value })}
                  >
                    {/* The current one stays listed even if the catalogue no longer has it. */}
                    {[...new Set([o.default_region, ...(regions.data?.data.map((r) => r.region_code) ?? [])])].map(
                      (code) => (
                        <option key={code} value={code}>
                          {code}
                        </option>
                      ),
                    )}
                  </select>
                )}
              </Field>
              <label className="check-label">
                <input
                  type="checkbox"
                  checked={o.email_alerts_enabled}
                  disabled={!admin || update.isPending}
                  onChange={(e) => update.mutate({ email_alerts_enabled: e.target.checked })}
                />{' '}
                Email every verified member when a monitor goes down or recovers (organization-wide email)
              </label>
              {update.isSuccess && (
                <p role="status" className="muted small">
                  Saved.
                </p>
              )}
            </form>
          </Card>
        )}
      </div>
    </>
  );
}
