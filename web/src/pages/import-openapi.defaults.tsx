import { DestinationType } from '../ui/destination-type';
import { useQuery } from '@tanstack/react-query';
import { unwrap, type ApiError } from '../api/client';
import { useApi } from '../api/context';
import { can, useSession } from '../api/session';
import { Field } from '../ui/form';

/** What the import applies to every monitor it creates, as typed (parsed when the import is sent). */
export interface ImportDefaultsDraft {
  interval_seconds: string;
  environment: string;
  tags: string;
  region_codes: string[];
  destination_ids: string[];
  paused: boolean;
}

export const EMPTY_DEFAULTS: ImportDefaultsDraft = {
  interval_seconds: '',
  environment: '',
  tags: '',
  region_codes: [],
  destination_ids: [],
  paused: false,
};

/** The draft as the import's `defaults`: only what was set; a non-number interval is sent as typed for the API to judge. */
export function defaultsBody(d: ImportDefaultsDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (d.interval_seconds.trim()) {
    const n = Number(d.interval_seconds);
    body.interval_seconds = Number.isInteger(n) ? n : d.interval_seconds;
  }
  if (d.environment.trim()) body.environment = d.environment.trim();
  const tags = d.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.length) body.tags = tags;
  if (d.region_codes.length) body.region_codes = d.region_codes;
  if (d.destination_ids.length) body.destination_ids = d.destination_ids;
  if (d.paused) body.paused = true;
  return body;
}

export const DEFAULT_FIELDS = [
  'defaults.interval_seconds',
  'defaults.environment',
  'defaults.tags',
  'defaults.region_codes',
  'defaults.destination_ids',
  'defaults.paused',
];

/** Interval, environment, tags, regions, destinations and paused for every monitor of the import. */
export function ImportDefaults(props: {
  value: ImportDefaultsDraft;
  onChange: (next: ImportDefaultsDraft) => void;
  error: ApiError | null;
}) {
  const api = useApi();
  const { session } = useSession();
  const admin = can(session.role).admin;
  const regions = useQuery({
    queryKey: ['regions'],
    queryFn: async () => unwrap(await api.client.GET('/api/v1/regions', {})),
    staleTime: 5 * 60_000,
  });
  // Only owners and admins may list destinations; others keep the organization's defaults.
  const destinations = useQuery({
    queryKey: ['destinations'],
    enabled: admin,
    queryFn: async () => unwrap(await api.client.GET('/api/v1/auth/organization/webhooks', {})),
  });
  const d = props.value;
  const set = <K extends keyof ImportDefaultsDraft>(key: K, v: ImportDefaultsDraft[K]) =>
    props.onChange({ ...d, [key]: v });
  const toggle = (list: string[], item: string, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));
  const text = (key: 'interval_seconds' | 'environment' | 'tags') =>
    function TextInput({ id, describedBy, invalid }: { id: string; describedBy?: string; invalid: boolean }) {
      return (
        <input
          id={id}
          value={d[key]}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          inputMode={key === 'interval_seconds' ? 'numeric' : undefined}
          onChange={(e) => set(key, e.target.value)}
        />
      );
    };
  const regionIssue = props.error?.issueFor('defaults.region_codes');
  const destinationIssue = props.error?.issueFor('defaults.destination_ids');
  return (
    <fieldset className="field import-defaults">
      <legend>For every monitor created</legend>
      <Field
        label="Check every (seconds)"
        name="defaults.interval_seconds"
        error={props.error}
        hint="Default: your plan's shortest interval."
      >
        {text('interval_seconds')}
      </Field>
      <Field label="Environment" name="defaults.environment" error={props.error} hint="Default: production.">
        {text('environment')}
      </Field>
      <Field
        label="Tags"
        name="defaults.tags"
        error={props.error}
        hint="Comma-separated; added to every monitor's tags."
      >
        {text('tags')}
      </Field>
      <fieldset className="field" data-field="defaults.region_codes">
        <legend>Regions</legend>
        {regions.data?.data.map((r) => (
          <label key={r.region_code} className="check-label">
            <input
              type="checkbox"
              checked={d.region_codes.includes(r.region_code)}
              onChange={(e) => set('region_codes', toggle(d.region_codes, r.region_code, e.target.checked))}
            />{' '}
            {r.region_code}
          </label>
        ))}
        <p className="hint">None chosen: the organization's default region.</p>
        {regionIssue && (
          <p className="field-error" role="alert">
            {regionIssue}
          </p>
        )}
      </fieldset>
      {admin && (
        <fieldset className="field" data-field="defaults.destination_ids">
          <legend>Alert destinations</legend>
          {destinations.data?.data.length === 0 && <p className="muted">No destinations yet.</p>}
          {destinations.data?.data.map((dst) => (
            <label key={dst.id} className="check-label">
              <input
                type="checkbox"
                checked={d.destination_ids.includes(dst.id)}
                onChange={(e) => set('destination_ids', toggle(d.destination_ids, dst.id, e.target.checked))}
              />{' '}
              {dst.name}{' '}
              <span className="muted">
                (<DestinationType type={dst.type} />)
              </span>
            </label>
          ))}
          <p className="hint">None chosen: every destination that takes the monitors' events.</p>
          {destinationIssue && (
            <p className="field-error" role="alert">
              {destinationIssue}
            </p>
          )}
        </fieldset>
      )}
      <label className="check-label">
        <input type="checkbox" checked={d.paused} onChange={(e) => set('paused', e.target.checked)} /> Create them
        paused
      </label>
    </fieldset>
  );
}
