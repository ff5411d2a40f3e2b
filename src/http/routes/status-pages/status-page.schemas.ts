import { Type } from '@sinclair/typebox';
import { INCIDENT_STATUSES } from '../../../modules/incidents/index.ts';
import { ListOf, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const slug = Type.String({
  description: 'Globally unique; 3-64 lower-case letters, digits and hyphens. The page is served at /status/{slug}.',
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
    title: Type.String({ minLength: 1, maxLength: 200 }),
    monitor_ids: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 100,
        description: 'Monitors of this organization the key can see. Default [].',
      }),
    ),
    public: Type.Optional(Type.Boolean({ default: true, description: 'Default true.' })),
  },
  { 'x-domain-validated': true, description: 'Unknown fields are rejected.' },
);

export const StatusPagePatchBody = Type.Object(
  {
    slug: Type.Optional(slug),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    monitor_ids: Type.Optional(Type.Array(Type.String(), { maxItems: 100, description: 'Replaces the list.' })),
    public: Type.Optional(Type.Boolean()),
  },
  { 'x-domain-validated': true, description: 'Fields to change.' },
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
