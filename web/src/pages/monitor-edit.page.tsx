import { isManaged, ManagedNotice } from '../ui/managed-notice';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { unwrap } from '../api/client';
import type { Monitor, MonitorType } from '../api/monitors';
import { EditForm, SaveBar } from '../ui/edit-form';
import { idempotencyHeader, useEditPage, useExisting, useFormSave } from '../ui/edit-form.hooks';
import { Field, FieldIssue, FormError, type FieldIds } from '../ui/form';
import { ConfigFields, configFromDraft, draftFromConfig, type ConfigDraft } from './monitor-edit.config';
import { HeartbeatScheduleFields } from './monitor-edit.heartbeat';
import { prefillOf } from './monitor-edit.prefill';

const TYPES: [MonitorType, string][] = [
  ['http', 'HTTP(S) request'],
  ['tls', 'TLS certificate'],
  ['tcp', 'TCP port'],
  ['dns', 'DNS record'],
  ['grpc', 'gRPC health'],
  ['heartbeat', 'Heartbeat (pinged by your job)'],
  ['icmp', 'Ping (ICMP)'],
  ['udp', 'UDP port'],
  ['domain', 'Domain registration expiry'],
  ['smtp', 'SMTP server'],
  ['websocket', 'WebSocket'],
  ['postgres', 'PostgreSQL'],
  ['mysql', 'MySQL / MariaDB'],
  ['redis', 'Redis'],
];
const TARGET_HINT: Record<MonitorType, string> = {
  http: 'A URL, e.g. https://example.com/health. Nothing else is needed.',
  tls: 'host or host:port whose certificate is checked.',
  tcp: 'host:port that must accept a connection.',
  dns: 'The name to resolve, e.g. example.com.',
  grpc: 'host:port of a gRPC server with the health service.',
  heartbeat: 'Not needed: the monitor gets its own ping URL.',
  icmp: 'A host name or IP address to ping, e.g. example.com.',
  udp: 'host:port that answers a datagram, e.g. ntp.example.com:123.',
  domain: 'The registered domain, e.g. example.com (its RDAP record is checked).',
  smtp: 'host or host:port of the mail server (port 25 by default, 465 with implicit TLS).',
  websocket: 'A ws:// or wss:// URL, e.g. wss://example.com/socket.',
  postgres: 'host:port (or a host: port 5432). User, password and database go in the settings below.',
  mysql: 'host:port (or a host: port 3306). User, password and database go in the settings below.',
  redis: 'host:port (or a host: port 6379). The password goes in the settings below.',
};

interface Draft {
  type: MonitorType;
  target: string;
  name: string;
  interval_seconds: string;
  environment: string;
  tags: string;
  region_codes: string[];
  config: ConfigDraft;
}

function draftOf(m: Monitor): Draft {
  return {
    type: m.type,
    target: m.type === 'heartbeat' ? '' : m.target,
    name: m.name,
    interval_seconds: String(m.interval_seconds),
    environment: m.environment,
    tags: m.tags.join(', '),
    region_codes: m.region_codes,
    config: draftFromConfig(m.type, m.config),
  };
}

const EMPTY: Draft = {
  type: 'http',
  target: '',
  name: '',
  interval_seconds: '',
  environment: '',
  tags: '',
  region_codes: [],
  config: {},
};

const TOP_FIELDS = ['type', 'target', 'name', 'interval_seconds', 'environment', 'tags', 'region_codes', 'config'];

/** Create (a URL alone is enough) and edit; every field as the API describes it, its issues next to it. */
export default function MonitorEditPage() {
  const { id, api, navigate, queryClient, session, writable, form } = useEditPage();
  const existing = useExisting(['monitor', id, 'detail'], id, async (id) =>
    unwrap(await api.client.GET('/api/v1/monitors/{id}', { params: { path: { id } } })),
  );
  const regions = useQuery({
    queryKey: ['regions'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/regions', {})),
    staleTime: 5 * 60_000,
  });
  const location = useLocation();
  // A page that knows the monitor (the gRPC discovery) hands its values over in the location state.
  const [prefill] = useState(() => (id === undefined ? prefillOf(location.state) : null));
  const [draft, setDraft] = useState<Draft>(() =>
    prefill ? { ...EMPTY, ...prefill, name: prefill.name ?? '' } : EMPTY,
  );
  // "Duplicate" on a monitor's page: /monitors/new?duplicate=<id> starts from that monitor's values.
  const [search] = useSearchParams();
  const duplicateOf = id === undefined ? (search.get('duplicate') ?? undefined) : undefined;
  const original = useExisting(['monitor', duplicateOf, 'detail'], duplicateOf, async (id) =>
    unwrap(await api.client.GET('/api/v1/monitors/{id}', { params: { path: { id } } })),
  );
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  useEffect(() => {
    if (existing.data && loadedFor !== existing.data.id) {
      setDraft(draftOf(existing.data));
      setLoadedFor(existing.data.id);
    } else if (original.data && loadedFor !== `copy:${original.data.id}`) {
      setDraft({ ...draftOf(original.data), name: `${original.data.name} (copy)` });
      setLoadedFor(`copy:${original.data.id}`);
    }
  }, [existing.data, original.data, loadedFor]);

  const { save, error } = useFormSave(form, {
    mutationFn: async () => {
      const body: Record<string, unknown> = {};
      if (!id) body.type = draft.type;
      if (draft.target.trim()) body.target = draft.target.trim();
      if (draft.name.trim()) body.name = draft.name.trim();
      // A heartbeat has no check interval on the form (its schedule says when pings are due): a value typed for
      // another type before switching is not sent; an edited heartbeat keeps its stored one.
      if (draft.interval_seconds.trim() && (id || draft.type !== 'heartbeat')) {
        const n = Number(draft.interval_seconds);
        body.interval_seconds = Number.isInteger(n) ? n : draft.interval_seconds;
      }
      if (draft.environment.trim()) body.environment = draft.environment.trim();
      const tags = draft.tags
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      if (tags.length || id) body.tags = tags;
      if (draft.region_codes.length) body.region_codes = draft.region_codes;
      const config = configFromDraft(draft.type, draft.config, id !== undefined);
      if (Object.keys(config).length) body.config = config;
      const headers = idempotencyHeader();
      // The body is built from the form; the API's schema is the one that judges it (its issues come back).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- free-form body checked by the server's schema
      const payload = body as any;
      return id
        ? unwrap(
            await api.client.PATCH('/api/v1/monitors/{id}', {
              params: { path: { id }, header: headers },
              body: payload,
            }),
          )
        : unwrap(await api.client.POST('/api/v1/monitors', { params: { header: headers }, body: payload }));
    },
    onSuccess: (monitor) => {
      void queryClient.invalidateQueries({ queryKey: ['monitors'] });
      void queryClient.invalidateQueries({ queryKey: ['monitor', monitor.id] });
      void navigate(`/monitors/${monitor.id}`);
    },
  });

  if (!writable) {
    return (
      <>
        <h1>{id ? 'Edit monitor' : 'New monitor'}</h1>
        <p role="alert">Your role ({session.role}) can look at monitors but not change them.</p>
      </>
    );
  }
  if (isManaged(existing.data)) {
    return (
      <>
        <h1>Edit {existing.data?.name ?? 'monitor'}</h1>
        <ManagedNotice record={existing.data} what="monitor" />
      </>
    );
  }
  if (id && existing.isError) {
    return (
      <>
        <h1>Edit monitor</h1>
        <p role="alert">{existing.error.message}</p>
      </>
    );
  }
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const text = (key: 'target' | 'name' | 'interval_seconds' | 'environment' | 'tags') =>
    function TextInput({ control }: FieldIds) {
      return (
        <input
          {...control}
          value={draft[key]}
          required={key === 'target' && draft.type !== 'heartbeat'}
          inputMode={key === 'interval_seconds' ? 'numeric' : undefined}
          onChange={(e) => set(key, e.target.value)}
        />
      );
    };
  return (
    <>
      <h1>
        {id
          ? `Edit ${existing.data?.name ?? 'monitor'}`
          : original.data
            ? `Duplicate ${original.data.name}`
            : 'New monitor'}
      </h1>
      {original.data && (
        <p className="muted">
          A new monitor with the values of {original.data.name} (its history and incidents stay with it). Nothing is
          created until you press Create.
        </p>
      )}
      <EditForm form={form} onSubmit={() => save.mutate()} className="monitor-form" noValidate>
        <p className="muted">
          Fields marked <span aria-hidden="true">*</span>
          <span className="visually-hidden">required</span> are required.
        </p>
        <FormError error={save.error} fields={TOP_FIELDS} />
        <Field label="Type" name="type" error={error} hint={id ? 'The type of a monitor cannot change.' : undefined}>
          {({ id: inputId, describedBy }) => (
            <select
              id={inputId}
              value={draft.type}
              disabled={id !== undefined}
              aria-describedby={describedBy}
              onChange={(e) => setDraft({ ...draft, type: e.target.value as MonitorType, config: {} })}
            >
              {TYPES.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Target"
          name="target"
          error={error}
          required={draft.type !== 'heartbeat'}
          hint={TARGET_HINT[draft.type]}
        >
          {text('target')}
        </Field>
        <Field label="Name" name="name" error={error} hint="Default: taken from the target.">
          {text('name')}
        </Field>
        {draft.type !== 'heartbeat' && (
          <Field
            label="Check every (seconds)"
            name="interval_seconds"
            error={error}
            hint="Default: your plan's shortest interval."
          >
            {text('interval_seconds')}
          </Field>
        )}
        <Field label="Environment" name="environment" error={error} hint="Default: production.">
          {text('environment')}
        </Field>
        <Field label="Tags" name="tags" error={error} hint="Comma-separated.">
          {text('tags')}
        </Field>
        <fieldset className="field" data-field="region_codes">
          <legend>Regions</legend>
          {regions.data?.data.map((r) => (
            <label key={r.region_code} className="check-label">
              <input
                type="checkbox"
                checked={draft.region_codes.includes(r.region_code)}
                onChange={(e) =>
                  set(
                    'region_codes',
                    e.target.checked
                      ? [...draft.region_codes, r.region_code]
                      : draft.region_codes.filter((c) => c !== r.region_code),
                  )
                }
              />{' '}
              {r.region_code} <span className="muted">({r.state === 'live' ? 'live' : 'no data'})</span>
            </label>
          ))}
          <p className="hint">None chosen: the organization's default region.</p>
          <FieldIssue issue={error?.issueFor('region_codes')} />
        </fieldset>
        {draft.type === 'heartbeat' && (
          <HeartbeatScheduleFields
            // Made again when a stored monitor arrives: the form's counts and units start from its schedule.
            key={loadedFor ?? 'new'}
            draft={draft.config}
            onChange={(config) => set('config', config)}
            error={error}
            intervalSeconds={Number(draft.interval_seconds) || 0}
          />
        )}
        <details
          className="advanced"
          // Pre-filled settings (a gRPC method and its request) are shown, not hidden behind the summary.
          open={prefill !== null || Boolean(error?.details.some((d) => d.field.startsWith('config')))}
        >
          <summary>{draft.type.toUpperCase()} settings, assertions and alerting</summary>
          <ConfigFields
            type={draft.type}
            draft={draft.config}
            error={error}
            onChange={(config) => set('config', config)}
            {...(id !== undefined && { monitorId: id })}
            passwordSet={existing.data?.password_set === true}
          />
        </details>
        <SaveBar pending={save.isPending} label={save.isPending ? 'Saving…' : id ? 'Save changes' : 'Create monitor'}>
          <Link to={id ? `/monitors/${id}` : '/monitors'}>Cancel</Link>
        </SaveBar>
      </EditForm>
    </>
  );
}
