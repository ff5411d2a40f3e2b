import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import { dateTime } from '../lib/format';
import { BadgeSnippets } from './badge-snippets';
import { Dialog } from './dialog';

/**
 * The monitor's badges (DECISIONS §18): create a token, copy the Markdown or HTML of the status, uptime and
 * response-time badges, rotate the token (the old URLs stop working) or revoke it.
 */
export function MonitorBadge({
  monitorId,
  monitorName,
  writable,
}: {
  monitorId: string;
  monitorName: string;
  writable: boolean;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const key = ['monitor', monitorId, 'badge'];
  const [asking, setAsking] = useState<'rotate' | 'revoke' | null>(null);
  const badge = useQuery({
    queryKey: key,
    retry: false,
    queryFn: async () => {
      try {
        return unwrap(await api.client.GET('/api/v1/monitors/{id}/badge', { params: { path: { id: monitorId } } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
  const create = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.POST('/api/v1/monitors/{id}/badge', {
          params: { path: { id: monitorId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
        }),
      ),
    onSuccess: (b) => queryClient.setQueryData(key, b),
  });
  const revoke = useMutation({
    mutationFn: async () =>
      unwrap(
        await api.client.DELETE('/api/v1/monitors/{id}/badge', {
          params: { path: { id: monitorId }, header: { 'Idempotency-Key': crypto.randomUUID() } },
        }),
      ),
    onSuccess: () => queryClient.setQueryData(key, null),
  });
  const error = create.error ?? revoke.error ?? badge.error;
  const b = badge.data;
  return (
    <section aria-labelledby="badge">
      <h2 id="badge">Badge</h2>
      {badge.isPending && <p role="status">Loading…</p>}
      {b === null && (
        <p className="muted">
          No badge. A badge shows this monitor&apos;s status, uptime or response time in a README or on another site;
          its address holds a token that you can rotate or revoke.
        </p>
      )}
      {b && (
        <>
          <p className="muted">
            Token made {dateTime(b.created_at)}. Anyone with these addresses sees what the badges show. Caches may keep
            an image for a minute.
          </p>
          <BadgeSnippets
            badges={[
              { name: 'Status', url: b.urls.status_svg, alt: `${monitorName} status` },
              { name: 'Uptime (30 days)', url: b.urls.uptime_svg, alt: `${monitorName} uptime` },
              { name: 'Response time (24 h)', url: b.urls.response_time_svg, alt: `${monitorName} response time` },
            ]}
          />
          <p className="muted">
            Uptime over another period: add <code>?days=N</code> (1 to 365). Each badge also exists as shields.io JSON:{' '}
            <code>{b.urls.status_json}</code>.
          </p>
        </>
      )}
      {writable && b !== undefined && (
        <p className="actions">
          {b === null ? (
            <button type="button" disabled={create.isPending} onClick={() => create.mutate()}>
              Create badge
            </button>
          ) : (
            <>
              <button type="button" onClick={() => setAsking('rotate')}>
                Rotate token
              </button>{' '}
              <button type="button" className="danger" onClick={() => setAsking('revoke')}>
                Revoke
              </button>
            </>
          )}
        </p>
      )}
      {error && (
        <p role="alert" className="form-error">
          {error.message}
        </p>
      )}
      <Dialog
        open={asking !== null}
        title={asking === 'rotate' ? 'Rotate the badge token?' : 'Revoke the badge?'}
        onClose={() => setAsking(null)}
      >
        <p>
          {asking === 'rotate'
            ? 'The badges get new addresses; the current ones stop working. Update every README that shows them.'
            : 'The badge addresses stop working. You can create a new badge later (with new addresses).'}
        </p>
        <p className="actions">
          <button
            type="button"
            className={asking === 'revoke' ? 'danger' : undefined}
            onClick={() => {
              if (asking === 'rotate') create.mutate();
              else revoke.mutate();
              setAsking(null);
            }}
          >
            {asking === 'rotate' ? 'Rotate token' : 'Revoke badge'}
          </button>{' '}
          <button type="button" onClick={() => setAsking(null)}>
            Cancel
          </button>
        </p>
      </Dialog>
    </section>
  );
}
