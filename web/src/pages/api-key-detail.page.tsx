import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime, plural } from '../lib/format';
import { KeyValueDialog } from './api-keys.page';
import { UsageChart } from '../ui/usage-chart';

export default function ApiKeyDetailPage() {
  const { id } = useParams() as { id: string };
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = useQuery({
    queryKey: ['api-key', id],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/api-keys/{id}', { params: { path: { id } } })),
  });
  const usage = useQuery({
    queryKey: ['api-key', id, 'usage'],
    queryFn: async () =>
      unwrap(await api.client.GET('/api/v1/api-keys/{id}/usage', { params: { path: { id }, query: {} } })),
  });
  const [grace, setGrace] = useState('86400');
  const [shown, setShown] = useState<{ title: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const rotate = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/api-keys/{id}/rotate', {
          params: { path: { id }, header: { 'Idempotency-Key': crypto.randomUUID() } },
          body: { grace_seconds: Number(grace) },
        }),
      ),
    onSuccess: (k) => {
      setCopied(false);
      setShown({ title: 'New value of the key', key: k.key });
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      void queryClient.invalidateQueries({ queryKey: ['api-key', id] });
    },
  });
  const revoke = useMutation({
    mutationFn: async () => unwrap(await api.client.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      void navigate('/api-keys');
    },
  });
  if (key.isError) return <p role="alert">{key.error.message}</p>;
  if (!key.data) return <p role="status">Loading…</p>;
  const k = key.data;
  const rows = usage.data?.data ?? [];
  return (
    <>
      <h1>API key: {k.name}</h1>
      <dl className="facts">
        <div>
          <dt>Prefix</dt>
          <dd>
            <code>{k.prefix}…</code>
          </dd>
        </div>
        <div>
          <dt>Scopes</dt>
          <dd>{k.scopes.join(', ')}</dd>
        </div>
        <div>
          <dt>Environments</dt>
          <dd>{k.environments.join(', ')}</dd>
        </div>
        <div>
          <dt>Budgets per minute</dt>
          <dd>
            read {k.rate_limits.read_per_minute}, write {k.rate_limits.write_per_minute}, delete{' '}
            {k.rate_limits.delete_per_minute}
          </dd>
        </div>
        <div>
          <dt>Expires</dt>
          <dd>{k.expires_at ? dateTime(k.expires_at) : 'never'}</dd>
        </div>
        <div>
          <dt>Revoked</dt>
          <dd>{k.revoked_at ? dateTime(k.revoked_at) : 'no'}</dd>
        </div>
      </dl>
      <section aria-labelledby="usage">
        <h2 id="usage">Usage per class</h2>
        {usage.data && (
          <p>
            {plural(usage.data.totals.requests, 'request')}: {usage.data.totals.read} read, {usage.data.totals.write}{' '}
            write, {usage.data.totals.delete} delete ({dateTime(usage.data.period.from)} –{' '}
            {dateTime(usage.data.period.to)}).
          </p>
        )}
        {rows.length > 0 && usage.data ? (
          <UsageChart
            rows={rows}
            resolution={usage.data.resolution}
            from={usage.data.period.from}
            to={usage.data.period.to}
          />
        ) : (
          usage.isSuccess && <p className="muted">No requests with this key in the period.</p>
        )}
      </section>
      {!k.revoked_at && (
        <section aria-labelledby="manage">
          <h2 id="manage">Rotate or revoke</h2>
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              rotate.mutate();
            }}
          >
            <label>
              Old value keeps working for (seconds)
              <input inputMode="numeric" value={grace} onChange={(e) => setGrace(e.target.value)} />
            </label>
            <button type="submit" disabled={rotate.isPending}>
              Rotate
            </button>
          </form>
          {rotate.error && <p role="alert">{rotate.error.message}</p>}
          <p>
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (window.confirm('Revoke this key? Calls with it stop working at once.')) revoke.mutate();
              }}
            >
              Revoke
            </button>
          </p>
        </section>
      )}
      <KeyValueDialog shown={shown} copied={copied} onCopied={() => setCopied(true)} onClose={() => setShown(null)} />
    </>
  );
}
