import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, unwrap } from '../api/client';
import { useApi } from '../api/context';
import type { components } from '../api/schema';
import { can, useSession } from '../api/session';
import { Field, FormError, useFocusFirstInvalid } from '../ui/form';
import type { MonitorPrefill } from './monitor-edit.prefill';

type DiscoveredMethod = components['schemas']['GrpcDiscoverResult']['services'][number]['methods'][number];

/**
 * Discovers a server's services by reflection and turns a unary method into a pre-filled grpc monitor form. The
 * server's address and TLS choice are in the URL, so the page can be linked and reloaded.
 */
export default function ImportGrpcPage() {
  const api = useApi();
  const navigate = useNavigate();
  const { session } = useSession();
  const form = useRef<HTMLFormElement>(null);
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const [params, setParams] = useSearchParams();
  // Typed into local state (a router navigation per keystroke would lag behind the input); the URL takes the values
  // when a discovery is asked for, so a reload or a shared link starts from the same server.
  const [target, setTarget] = useState(params.get('target') ?? '');
  const [tls, setTls] = useState(params.get('tls') === '1');
  const [skipVerify, setSkipVerify] = useState(params.get('skip_verify') === '1');
  const [timeout, setTimeoutMs] = useState(params.get('timeout_ms') ?? '');
  const remember = () => {
    const next = new URLSearchParams();
    if (target.trim()) next.set('target', target.trim());
    if (tls) next.set('tls', '1');
    if (tls && skipVerify) next.set('skip_verify', '1');
    if (timeout.trim()) next.set('timeout_ms', timeout.trim());
    setParams(next, { replace: true });
  };

  const discover = useMutation({
    mutationFn: async () => {
      const body: Record<string, unknown> = { target: target.trim(), tls };
      if (tls && skipVerify) body.tls_skip_verify = true;
      if (timeout.trim()) {
        const n = Number(timeout);
        body.timeout_ms = Number.isInteger(n) ? n : timeout;
      }
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as typed; the server's schema judges it
      const payload = body as any;
      return unwrap(await api.client.POST('/api/v1/monitors/grpc/discover', { body: payload })).services;
    },
  });
  useFocusFirstInvalid(form, discover.error);
  useEffect(() => {
    if (discover.isSuccess) resultsHeading.current?.focus();
  }, [discover.isSuccess, discover.data]);

  if (!can(session.role).write) {
    return (
      <>
        <h1>Discover a gRPC server</h1>
        <p role="alert">Your role ({session.role}) can look at monitors but not create them.</p>
      </>
    );
  }
  const error = discover.error instanceof ApiError ? discover.error : null;
  const monitorMethod = (service: string, m: DiscoveredMethod) => {
    const prefill: MonitorPrefill = {
      type: 'grpc',
      target: target.trim(),
      name: `${service.split('.').pop() ?? service}/${m.name}`,
      config: {
        method: `${service}/${m.name}`,
        request: JSON.stringify(m.request_template, null, 2),
        ...(tls && { tls: true }),
      },
    };
    void navigate('/monitors/new', { state: { prefill } });
  };
  return (
    <>
      <div className="page-head">
        <h1>Discover a gRPC server</h1>
        <Link to="/imports/openapi">Import from OpenAPI instead</Link>
      </div>
      <p className="muted">
        Lists the services and methods of a server with reflection; pick a unary method to monitor it with a request
        built from its message types.
      </p>
      <form
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          remember();
          discover.mutate();
        }}
      >
        <FormError error={discover.error} fields={['target', 'tls', 'tls_skip_verify', 'timeout_ms']} />
        <Field label="Server" name="target" error={error} required hint="host:port, e.g. inventory.internal:50051.">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              value={target}
              required
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setTarget(e.target.value)}
            />
          )}
        </Field>
        <div className="field">
          <label className="check-label">
            <input type="checkbox" checked={tls} onChange={(e) => setTls(e.target.checked)} /> Connect with TLS
          </label>
          {tls && (
            <label className="check-label">
              <input type="checkbox" checked={skipVerify} onChange={(e) => setSkipVerify(e.target.checked)} /> Accept
              any certificate (self-signed servers; discovery only)
            </label>
          )}
        </div>
        <Field label="Timeout (ms)" name="timeout_ms" error={error} hint="For the whole discovery. Default 10000.">
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              inputMode="numeric"
              value={timeout}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => setTimeoutMs(e.target.value)}
            />
          )}
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={discover.isPending}>
            {discover.isPending ? 'Discovering…' : 'Discover'}
          </button>
        </div>
      </form>
      {discover.data && (
        <section aria-labelledby="services-heading">
          <h2 id="services-heading" ref={resultsHeading} tabIndex={-1}>
            {discover.data.length} services
          </h2>
          {discover.data.length === 0 && <p>The server lists no services besides reflection.</p>}
          {discover.data.map((s) => (
            <section key={s.name} aria-labelledby={`svc-${s.name}`} className="card grpc-service">
              <h3 id={`svc-${s.name}`}>
                <code>{s.name}</code>
              </h3>
              <ul className="plain">
                {s.methods.map((m) => {
                  const streaming = m.client_streaming || m.server_streaming;
                  return (
                    <li key={m.name} className="grpc-method">
                      <div>
                        <strong>{m.name}</strong>{' '}
                        <span className="muted small">
                          {m.input_type} → {m.output_type}
                          {streaming &&
                            ` · ${[m.client_streaming && 'client streaming', m.server_streaming && 'server streaming'].filter(Boolean).join(', ')}`}
                        </span>
                      </div>
                      {streaming ? (
                        <span className="muted small">Only unary methods can be monitored.</span>
                      ) : (
                        <button
                          type="button"
                          aria-label={`Monitor this method: ${s.name}/${m.name}`}
                          onClick={() => monitorMethod(s.name, m)}
                        >
                          Monitor this method
                        </button>
                      )}
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </section>
      )}
    </>
  );
}
