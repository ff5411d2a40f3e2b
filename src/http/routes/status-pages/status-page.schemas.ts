import { Type } from '@sinclair/typebox';
import { INCIDENT_STATUSES } from '../../../modules/incidents/index.ts';
import { SLA_PERIODS } from '../../../modules/reports/index.ts';
import { ListOf, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

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

const showSlaTargets = Type.Boolean({
  'x-issue': 'must be true or false',
  description:
    "Show the current period's achievement (UTC calendar period) of each SLA target whose monitors are all on the page. Default false.",
});

const allowEmbedding = Type.Boolean({
  'x-issue': 'must be true or false',
  description:
    'Let other sites show the public page in a frame (Content-Security-Policy frame-ancestors *). Default false: only this app (its preview) may frame it.',
});

export const StatusPageRecord = Type.Object(
  {
    id: Type.String({ description: 'stp_…' }),
    slug,
    title: Type.String(),
    monitor_ids: Type.Array(Type.String(), { description: 'Monitors shown, in this order.' }),
    public: Type.Boolean({ description: 'false: /status/{slug} answers 404.' }),
    show_sla_targets: Type.Boolean({
      description:
        "Whether the public page shows the current period's achievement of each SLA target whose monitors are all on the page.",
    }),
    allow_embedding: Type.Boolean({ description: 'Whether other sites may show the public page in a frame.' }),
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
    show_sla_targets: Type.Optional(showSlaTargets),
    allow_embedding: Type.Optional(allowEmbedding),
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
    show_sla_targets: Type.Optional(showSlaTargets),
    allow_embedding: Type.Optional(allowEmbedding),
  },
  { description: 'Fields to change. Unknown fields are rejected.' },
);

const Day = Type.Object({
  day: Type.String({ description: 'YYYY-MM-DD (UTC); the last day runs to generated_at.' }),
  checks: Type.Integer({ description: 'Checks run that day (rollups).' }),
  failures: Type.Integer({ description: 'Failed checks that day (rollups).' }),
  downtime_seconds: Type.Number({
    description: 'Down time that day, accounted as the availability report does (from the state transitions).',
  }),
  uptime_percent: Nullable(
    Type.Number({
      description:
        '100 × up / monitored time that day; null: nothing monitored (before the monitor existed, paused, no verdict yet).',
    }),
  ),
  monitored_seconds: Type.Number({ description: 'Up + down time that day.' }),
  paused_seconds: Type.Number({ description: 'Paused time that day (not monitored).' }),
});

const uptimeOf = (window: string) =>
  Nullable(Type.Number({ description: `Uptime over the ${window} before generated_at; null: nothing monitored.` }));

const PublicIncident = Type.Object({
  id: Type.String(),
  number: Type.Integer(),
  title: Type.String(),
  status: lit(INCIDENT_STATUSES),
  monitor_id: Nullable(Type.String()),
  started_at: Timestamp(
    'When the failure began: the first failing check of the confirmed outage, as the availability report dates it (opened_at when not known).',
  ),
  opened_at: Timestamp('When the incident opened (the outage was confirmed).'),
  resolved_at: Nullable(Timestamp()),
  duration_seconds: Type.Number({ description: 'From started_at to resolved_at, or to generated_at while open.' }),
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
        status: lit(['operational', 'degraded', 'paused', 'pending', 'maintenance'] as const),
        uptime_percent: Nullable(Type.Number({ description: 'The same as uptime.last_90_days.' })),
        uptime: Type.Object(
          {
            last_24_hours: uptimeOf('24 hours'),
            last_7_days: uptimeOf('7 days'),
            last_30_days: uptimeOf('30 days'),
            last_90_days: uptimeOf('90 days'),
          },
          { description: "Time-based uptime with the availability report's accounting (paused time excluded)." },
        ),
        days: Type.Array(Day, { description: 'The last 90 UTC days, oldest first.' }),
      }),
    ),
    outage: lit(['none', 'partial', 'major'] as const, {
      description:
        'none: no monitor degraded; partial: some of the watched (not paused, not pending) monitors; major: all of them.',
    }),
    incidents: Type.Array(PublicIncident, { description: 'Open incidents of the listed monitors, oldest first.' }),
    past_incidents: Type.Array(PublicIncident, {
      description:
        'Resolved incidents of the listed monitors open at some time in the last 90 days, newest first (at most 50).',
    }),
    past_incidents_truncated: Type.Boolean({ description: 'true: there were more than past_incidents lists.' }),
    maintenance: Type.Array(
      Type.Object({
        id: Type.String({ description: 'mnt_…' }),
        name: Type.String(),
        description: Nullable(Type.String()),
        starts_at: Timestamp(),
        ends_at: Timestamp(),
        in_progress: Type.Boolean(),
        monitor_ids: Type.Array(Type.String(), { description: 'The listed monitors the window covers.' }),
      }),
      {
        description:
          'Maintenance windows announced on this page: in progress, or starting within their announce_minutes_before.',
      },
    ),
    sla_targets: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        target_percent: Type.Number(),
        period: lit(SLA_PERIODS),
        monitor_ids: Type.Array(Type.String()),
        period_from: Timestamp(),
        period_to: Timestamp(),
        achieved_percent: Nullable(
          Type.Number({ description: 'So far in the current period; null: nothing monitored.' }),
        ),
        met: Nullable(
          Type.Boolean({
            description: 'Always null: the current period is not over, so it is neither met nor missed yet.',
          }),
        ),
        status: lit(['in_progress', 'no_data'] as const, {
          description: 'in_progress: monitored so far, the period still running; no_data: nothing monitored yet.',
        }),
        error_budget_used_percent: Nullable(
          Type.Number({ description: '100 × downtime so far / the period’s error budget; over 100 when overspent.' }),
        ),
        error_budget_exhausted: Nullable(
          Type.Boolean({ description: 'The whole error budget is spent: the period can no longer meet its target.' }),
        ),
        error_budget_remaining_percent: Nullable(Type.Number()),
      }),
      {
        description:
          "The current UTC calendar period of each SLA target whose monitors are all on the page, as the SLA report's current period; empty unless show_sla_targets.",
      },
    ),
  },
  { $id: 'PublicStatusPage', title: 'PublicStatusPage' },
);
