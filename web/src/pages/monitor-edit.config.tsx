import { DestinationType } from '../ui/destination-type';
import { useQuery } from '@tanstack/react-query';
import { unwrap, type ApiError } from '../api/client';
import { useApi } from '../api/context';
import type { MonitorType } from '../api/monitors';
import FIELDS from '../api/monitor-config.fields.json';
import { asText } from '../lib/format';
import { Field } from '../ui/form';
import { MonitorPicker } from '../ui/monitor-picker';
import { AssertionsBuilder, type AssertionDraft } from './monitor-edit.assertions';

interface FieldSchema {
  type: string | string[];
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  enum?: (string | null)[];
  /** A secret (a database monitor's password): typed, sent when given, never shown (the API does not return it). */
  writeOnly?: boolean;
}

/** The form's value of one config key: text as typed; null = not set (the API's default applies). */
export type ConfigDraft = Record<string, string | boolean | string[] | AssertionDraft[] | null>;

const LABELS: Record<string, string> = {
  timeout_ms: 'Timeout (ms)',
  failure_threshold: 'Failures before down',
  success_threshold: 'Successes before up',
  confirm_regions: 'Regions that must agree',
  alert_latency_ms: 'Alert above latency (ms)',
  reminder_interval_minutes: 'Remind while down every (minutes)',
  intelligence_incidents: 'Intelligence opens incidents',
  depends_on: 'Depends on',
  follow_redirects: 'Follow redirects',
  verify_tls: 'Verify TLS certificate',
  ca_certificate: 'CA certificate (PEM)',
  content_ignore_patterns: 'Ignore in content (one pattern a line)',
  alert_days_before_expiry: 'Alert days before expiry',
  record_type: 'Record type',
  resolver: 'Resolver (IP[:port])',
  expected: 'Expected answers (one a line)',
  tls: 'Use TLS',
  service: 'Service',
  grace_seconds: 'Grace (seconds)',
  max_run_seconds: 'Longest run (seconds)',
  slug: 'Slug (for the organization ping key URL)',
  method: 'Method',
  headers: 'Headers (Name: value, one a line)',
  body: 'Body',
  count: 'Pings per check',
  max_loss_percent: 'Largest packet loss still up (%)',
  rdap_base_url: 'RDAP server (base URL)',
  tls_mode: 'TLS',
  username: 'User',
  password: 'Password',
  database: 'Database',
  query: 'Query (SQL, or a Redis command)',
  expected_value: 'Expected value',
};

/** Keys two types share with different meanings, named per type. */
const TYPE_LABELS: Partial<Record<MonitorType, Record<string, string>>> = {
  udp: { send: 'Datagram to send', send_encoding: 'Datagram written as', expect: 'Reply must contain' },
  websocket: { send: 'Send after connecting', expect: 'First message contains' },
};

/** Assertion kinds per type where not all apply, and what counts as up without assertions. */
const ASSERTIONS_OF: Partial<Record<MonitorType, { types: string[]; emptyText: string }>> = {
  icmp: { types: ['response_time'], emptyText: 'None: replies within the packet-loss limit count as up.' },
  udp: { types: ['body', 'response_time'], emptyText: 'None: any reply (containing the expected text) is up.' },
  // The body of an smtp check is the banner, of a websocket check its first message.
  smtp: { types: ['body', 'response_time'], emptyText: 'None: a 220 banner and an accepted EHLO count as up.' },
  websocket: { types: ['body', 'response_time'], emptyText: 'None: an accepted upgrade counts as up.' },
  postgres: { types: ['body', 'response_time'], emptyText: 'None: a login (and the query, when set) counts as up.' },
  mysql: { types: ['body', 'response_time'], emptyText: 'None: a login (and the query, when set) counts as up.' },
  redis: { types: ['body', 'response_time'], emptyText: 'None: a login and the command (PING) count as up.' },
};

/** Keys a type edits in a form of its own, outside these settings (a heartbeat's schedule and grace). */
const OWN_FORM: Partial<Record<MonitorType, string[]>> = { heartbeat: ['schedule', 'grace_seconds'] };

/** Array keys edited as lists of ids by a picker (not as text, one a line). */
const LISTS_OF_IDS = new Set(['alert_destination_ids', 'depends_on']);

function kind(schema: FieldSchema): string {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.find((t) => t !== 'null') ?? 'string';
}

export function configFields(type: MonitorType): [string, FieldSchema][] {
  return Object.entries((FIELDS as Record<string, Record<string, FieldSchema>>)[type] ?? {});
}

/** The monitor's stored config as form values. */
export function draftFromConfig(type: MonitorType, config: Record<string, unknown>): ConfigDraft {
  const draft: ConfigDraft = {};
  for (const [key, schema] of configFields(type)) {
    const value = config[key];
    if (value === undefined || value === null) continue;
    const k = kind(schema);
    if (key === 'assertions') draft[key] = (value as Record<string, unknown>[]).map(assertionDraft);
    else if (key === 'headers')
      draft[key] = Object.entries(value as Record<string, string>)
        .map(([n, v]) => `${n}: ${v}`)
        .join('\n');
    else if (k === 'array') draft[key] = LISTS_OF_IDS.has(key) ? (value as string[]) : (value as string[]).join('\n');
    else if (k === 'boolean') draft[key] = value as boolean;
    else draft[key] = asText(value);
  }
  return draft;
}

function assertionDraft(a: Record<string, unknown>): AssertionDraft {
  const operator = ['equals', 'in', 'less_than', 'contains', 'not_contains', 'matches', 'exists'].find((o) => o in a);
  const value = operator ? a[operator] : '';
  return {
    type: String(a.type),
    name: typeof a.name === 'string' ? a.name : '',
    path: typeof a.path === 'string' ? a.path : '',
    operator: operator ?? 'equals',
    value: Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : JSON.stringify(value),
  };
}

/** Form values → the API's config: only the keys the user set; numbers and lists parsed. */
export function configFromDraft(type: MonitorType, draft: ConfigDraft, clear: boolean): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [key, schema] of configFields(type)) {
    const value = draft[key];
    const unset = value === null || value === undefined || value === '';
    // An empty secret keeps the stored one (it is never loaded into the form, so empty is the usual state).
    if (unset && schema.writeOnly === true) continue;
    if (unset) {
      // On edit, a key emptied by the user goes back to its default.
      if (clear) config[key] = null;
      continue;
    }
    const k = kind(schema);
    if (key === 'assertions') config[key] = (value as AssertionDraft[]).map(assertionBody);
    else if (key === 'headers') {
      config[key] = Object.fromEntries(
        asText(value)
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => {
            const at = line.indexOf(':');
            return at < 0 ? [line.trim(), ''] : [line.slice(0, at).trim(), line.slice(at + 1).trim()];
          }),
      );
    } else if (k === 'array') {
      config[key] = Array.isArray(value)
        ? value
        : asText(value)
            .split('\n')
            .map((s) => s.trim())
            .filter(Boolean);
    } else if (k === 'object') {
      // Objects (a gRPC request, metadata) are typed as JSON; text that is not JSON goes as typed for the API to refuse.
      try {
        config[key] = JSON.parse(asText(value)) as unknown;
      } catch {
        config[key] = value;
      }
    } else if (k === 'integer' || k === 'number') {
      const n = Number(value);
      config[key] = Number.isFinite(n) && asText(value).trim() !== '' ? n : value;
    } else config[key] = value;
  }
  return config;
}

function assertionBody(a: AssertionDraft): Record<string, unknown> {
  const body: Record<string, unknown> = { type: a.type };
  if (a.type === 'header') body.name = a.name;
  if (a.type === 'json') body.path = a.path;
  let value: unknown = a.value;
  if (a.operator === 'in') value = a.value.split(',').map((s) => Number(s.trim()));
  else if (a.operator === 'exists') value = a.value !== 'false';
  else if (a.type === 'status' || a.operator === 'less_than') value = Number(a.value);
  else if (a.type === 'json' && a.operator === 'equals') {
    try {
      value = JSON.parse(a.value);
    } catch {
      value = a.value;
    }
  }
  body[a.operator] = value;
  return body;
}

function describe(schema: FieldSchema): string | undefined {
  const parts: string[] = [];
  if (schema.description) parts.push(schema.description);
  if (schema.default !== undefined && !(Array.isArray(schema.default) && schema.default.length === 0)) {
    const d = asText(schema.default);
    if (d !== '{}' && d !== '') parts.push(`Default: ${d}.`);
  }
  if (schema.minimum !== undefined && schema.maximum !== undefined) parts.push(`${schema.minimum}–${schema.maximum}.`);
  return parts.join(' ') || undefined;
}

/** Every config key of the type, as the API's document describes it (monitor-config.fields.json). */
export function ConfigFields(props: {
  type: MonitorType;
  draft: ConfigDraft;
  onChange: (draft: ConfigDraft) => void;
  error: ApiError | null;
  /** The monitor being edited (none while creating): not offered as its own parent. */
  monitorId?: string;
  /** A database monitor being edited has a stored password (shown as set, never filled in). */
  passwordSet?: boolean;
}) {
  const set = (key: string, value: ConfigDraft[string]) => props.onChange({ ...props.draft, [key]: value });
  return (
    <>
      {configFields(props.type).map(([key, schema]) => {
        if (OWN_FORM[props.type]?.includes(key)) return null;
        const name = `config.${key}`;
        const label = TYPE_LABELS[props.type]?.[key] ?? LABELS[key] ?? key;
        const hint = describe(schema);
        const value = props.draft[key];
        if (key === 'alert_destination_ids') {
          return (
            <DestinationsPicker
              key={key}
              value={(value as string[] | null) ?? []}
              onChange={(ids) => set(key, ids.length ? ids : null)}
              error={props.error}
            />
          );
        }
        if (key === 'depends_on') {
          return (
            <MonitorPicker
              key={key}
              label={label}
              name={name}
              value={(value as string[] | null) ?? []}
              onChange={(ids) => set(key, ids.length ? ids : null)}
              error={props.error}
              hint={hint}
              {...(props.monitorId !== undefined && { exclude: props.monitorId })}
            />
          );
        }
        if (key === 'assertions') {
          return (
            <AssertionsBuilder
              key={key}
              value={(value as AssertionDraft[] | null) ?? []}
              onChange={(list) => set(key, list.length ? list : null)}
              error={props.error}
              {...ASSERTIONS_OF[props.type]}
            />
          );
        }
        const k = kind(schema);
        if (schema.writeOnly === true) {
          const stored = props.passwordSet === true;
          return (
            <Field
              key={key}
              label={label}
              name={name}
              error={props.error}
              hint={stored ? 'A password is stored: leave empty to keep it, type one to replace it.' : hint}
            >
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  type="password"
                  autoComplete="new-password"
                  placeholder={stored ? '(stored)' : ''}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={(value as string | null) ?? ''}
                  onChange={(e) => set(key, e.target.value)}
                />
              )}
            </Field>
          );
        }
        return (
          <Field key={key} label={label} name={name} error={props.error} hint={hint}>
            {({ id, describedBy, invalid }) =>
              k === 'boolean' ? (
                <select
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={asText(value)}
                  onChange={(e) => set(key, e.target.value === '' ? null : e.target.value === 'true')}
                >
                  <option value="">Default ({asText(schema.default ?? 'off')})</option>
                  <option value="true">Yes</option>
                  <option value="false">No</option>
                </select>
              ) : schema.enum ? (
                <select
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={(value as string | null) ?? ''}
                  onChange={(e) => set(key, e.target.value || null)}
                >
                  <option value="">Default ({asText(schema.default ?? 'none')})</option>
                  {schema.enum
                    .filter((v): v is string => v !== null)
                    .map((v) => (
                      <option key={v} value={v}>
                        {v}
                      </option>
                    ))}
                </select>
              ) : k === 'array' || k === 'object' || key === 'body' || key === 'ca_certificate' || key === 'send' ? (
                <textarea
                  id={id}
                  rows={3}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={(value as string | null) ?? ''}
                  onChange={(e) => set(key, e.target.value)}
                />
              ) : (
                <input
                  id={id}
                  inputMode={k === 'integer' ? 'numeric' : undefined}
                  placeholder={asText(schema.default)}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  value={(value as string | null) ?? ''}
                  onChange={(e) => set(key, e.target.value)}
                />
              )
            }
          </Field>
        );
      })}
    </>
  );
}

/** Destinations to notify; members who may not list destinations keep the organization's defaults. */
function DestinationsPicker(props: { value: string[]; onChange: (ids: string[]) => void; error: ApiError | null }) {
  const api = useApi();
  const destinations = useQuery({
    queryKey: ['destinations'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization/webhooks', {})),
  });
  const issue = props.error?.issueFor('config.alert_destination_ids');
  return (
    <fieldset className="field" data-field="config.alert_destination_ids">
      <legend>Alert destinations</legend>
      {destinations.isError && <p className="muted">Only owners and admins choose destinations here.</p>}
      {destinations.data?.data.length === 0 && <p className="muted">No destinations yet.</p>}
      {destinations.data?.data.map((d) => (
        <label key={d.id} className="check-label">
          <input
            type="checkbox"
            checked={props.value.includes(d.id)}
            onChange={(e) =>
              props.onChange(e.target.checked ? [...props.value, d.id] : props.value.filter((id) => id !== d.id))
            }
          />{' '}
          {d.name}{' '}
          <span className="muted">
            (<DestinationType type={d.type} />)
          </span>
        </label>
      ))}
      <p className="hint">None chosen: every destination of the organization that takes this monitor's events.</p>
      {issue && (
        <p className="field-error" role="alert">
          {issue}
        </p>
      )}
    </fieldset>
  );
}
