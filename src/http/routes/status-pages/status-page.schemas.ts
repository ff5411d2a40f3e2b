import { Type } from '@sinclair/typebox';
import { INCIDENT_STATUSES } from '../../../modules/incidents/index.ts';
import { ListOf, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const slug = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$',
  'x-issue': 'must be 3-64 lower-case letters, digits or hyphens, not starting or ending with a hyphen',
  description: 'Globally unique; 3-64 lower-case letters, digits and hyphens. The page is served at /status/{slug}.',
});
/** Leading and trailing spaces are dropped; something must remain. */
const title = Type.String({
  maxLength: 200,
  pattern: '\\S',
  'x-issue': 'must be a non-empty string of at most 200 characters',
});
const monitorIds = (description: string) =>
  Type.Array(Type.String({ pattern: '^mon_[0-9a-z]{26}$', 'x-issue': 'must be a monitor id (mon_…)' }), {
    maxItems: 100,
    description,
  });

export const StatusPageRecord = Type.Object(
  {
    id: Type.String({ description: 'stp_…' }),
    slug,
    title: Type.String(),
    monitor_ids: Type.Array(Type.String(), { description: 'Monitors shown, in this order.' }),
    public: Type.Boolean({ description: 'false: /status/{slug} answers 404.' }),
    url: Type.String({ description: 'Address of the public page.' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'StatusPage', title: 'StatusPage' },
);

export const StatusPageList = ListOf(Type.Ref(StatusPageRecord), 'StatusPageList');
export const StatusPageListQuery = Type.Object({ ...PageQuery });

export const StatusPageCreateBody = Type.Object(
  {
    slug,
    title,
    monitor_ids: Type.Optional(monitorIds('Monitors of this organization the key can see, each once. Default [].')),
    public: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  },
  { description: 'Unknown fields are rejected.' },
);

export const StatusPagePatchBody = Type.Object(
  {
    slug: Type.Optional(slug),
    title: Type.Optional(title),
    monitor_ids: Type.Optional(
      monitorIds(
        'Replaces the list of monitors the key can see (monitors of environments the key cannot see stay on the page).',
      ),
    ),
    public: Type.Optional(Type.Boolean()),
  },
  { description: 'Fields to change. Unknown fields are rejected.' },
);

const Day = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD (UTC).' }),
  checks: Type.Integer(),
  failures: Type.Integer(),
  downtime_seconds: Type.Integer(),
  uptime_percent: Nullable(Type.Number({ description: 'null: no data that day.' })),
});

export const PublicStatus = Type.Object(
  {
    slug: Type.String(),
    title: Type.String(),
    status: lit(['operational', 'degraded'] as const),
    generated_at: Timestamp(),
    monitors: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        status: lit(['operational', 'degraded', 'paused', 'pending'] as const),
        uptime_percent: Nullable(Type.Number({ description: 'Over the days with data in the window.' })),
        days: Type.Array(Day, { description: 'The last 90 days, oldest first.' }),
      }),
    ),
    incidents: Type.Array(
      Type.Object({
        id: Type.String(),
        number: Type.Integer(),
        title: Type.String(),
        status: lit(INCIDENT_STATUSES),
        monitor_id: Nullable(Type.String()),
        opened_at: Timestamp(),
      }),
      { description: 'Open incidents of the listed monitors, oldest first.' },
    ),
  },
  { $id: 'PublicStatusPage', title: 'PublicStatusPage' },
);
