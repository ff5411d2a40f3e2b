import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import SCOPES from '../api/scopes.json';
import { useSession } from '../api/session';
import { dateTime, relativeTime } from '../lib/format';
import { Dialog } from '../ui/dialog';
import { Field, FormError } from '../ui/form';

export default function ApiKeysPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { session } = useSession();
  const keys = useQuery({
    queryKey: ['api-keys'],
    enabled: session.role !== 'viewer',
    queryFn: async () => unwrap(await api.client.GET('/api/v1/api-keys', { params: { query: { limit: 200 } } })),
  });
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['monitors:read']);
  const [environments, setEnvironments] = useState('production');
  const [expires, setExpires] = useState('');
  const [readLimit, setReadLimit] = useState('');
  const [writeLimit, setWriteLimit] = useState('');
  const [shown, setShown] = useState<{ title: string; key: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: async () => {
      const rateLimits: Record<string, number> = {};
      if (readLimit) rateLimits.read_per_minute = Number(readLimit);
      if (writeLimit) rateLimits.write_per_minute = Number(writeLimit);
      return unwrap(
        await api.client.POST('/api/v1/api-keys', {
          params: { header: { 'Idempotency-Key': crypto.randomUUID() } },
          body: {
            name,
            scopes,
            environments: environments
              .split(',')
              .map((e) => e.trim())
              .filter(Boolean),
            ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
            ...(Object.keys(rateLimits).length ? { rate_limits: rateLimits } : {}),
          },
        }),
      );
    },
    onSuccess: (key) => {
      setCopied(false);
      setShown({ title: `Key “${key.name}” created`, key: key.key });
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const error = create.error instanceof ApiError ? create.error : null;
  if (session.role === 'viewer') {
    return (
      <>
        <h1>API keys</h1>
        <p role="alert">Viewers cannot hold API keys.</p>
      </>
    );
  }
  return (
    <>
      <h1>API keys</h1>
      {keys.isError && <p role="alert">{keys.error.message}</p>}
      {keys.data && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Environments</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.data.map((k) => (
                <tr key={k.id}>
                  <td>
                    <Link to={`/api-keys/${k.id}`}>{k.name}</Link>
                    {k.revoked_at && <span className="badge badge-down"> Revoked</span>}
                  </td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td className="small">{k.scopes.join(', ')}</td>
                  <td>{k.environments.join(', ')}</td>
                  <td>{k.expires_at ? dateTime(k.expires_at) : 'never'}</td>
                  <td>{relativeTime(k.last_used_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <section aria-labelledby="new-key">
        <h2 id="new-key">New key</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate();
          }}
        >
          <FormError error={create.error} fields={['name', 'scopes', 'environments', 'expires_at', 'rate_limits']} />
          <Field label="Name" name="name" error={error} required>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                required
                value={name}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setName(e.target.value)}
              />
            )}
          </Field>
          <fieldset className="field" data-field="scopes">
            <legend>
              Scopes <span aria-hidden="true">*</span>
            </legend>
            <div className="check-grid">
              {SCOPES.map((s) => (
                <label key={s} className="check-label">
                  <input
                    type="checkbox"
                    checked={scopes.includes(s)}
                    onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))}
                  />{' '}
                  {s}
                </label>
              ))}
            </div>
            {error?.issueFor('scopes') && (
              <p className="field-error" role="alert">
                {error.issueFor('scopes')}
              </p>
            )}
          </fieldset>
          <Field label="Environments" name="environments" error={error} hint="Comma-separated. Default: production.">
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                value={environments}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setEnvironments(e.target.value)}
              />
            )}
          </Field>
          <Field label="Expires" name="expires_at" error={error} hint="Empty: never.">
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                type="datetime-local"
                value={expires}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setExpires(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Read budget (requests/minute)"
            name="rate_limits.read_per_minute"
            error={error}
            hint="Empty: the plan's."
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                inputMode="numeric"
                value={readLimit}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setReadLimit(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Write budget (requests/minute)"
            name="rate_limits.write_per_minute"
            error={error}
            hint="Empty: the plan's."
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                inputMode="numeric"
                value={writeLimit}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(e) => setWriteLimit(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create key
          </button>
        </form>
      </section>
      <KeyValueDialog shown={shown} copied={copied} onCopied={() => setCopied(true)} onClose={() => setShown(null)} />
    </>
  );
}

/** The key's value, shown this once: copy it, confirm, and it is gone from the page. */
export function KeyValueDialog(props: {
  shown: { title: string; key: string } | null;
  copied: boolean;
  onCopied: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={props.shown !== null} title={props.shown?.title ?? ''} onClose={props.onClose}>
      <p>Copy the key now: it is shown only this once.</p>
      <p>
        <code className="secret" data-testid="key-value">
          {props.shown?.key}
        </code>
      </p>
      <div className="actions">
        <button
          type="button"
          onClick={() => {
            if (props.shown) void navigator.clipboard?.writeText(props.shown.key).then(props.onCopied, () => undefined);
          }}
        >
          Copy
        </button>
        <button type="button" className="primary" onClick={props.onClose}>
          I have stored it
        </button>
        <span role="status">{props.copied ? 'Copied.' : ''}</span>
      </div>
    </Dialog>
  );
}
