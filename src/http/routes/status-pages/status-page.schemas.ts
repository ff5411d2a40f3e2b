import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type } from '@sinclair/typebox';
import { INCIDENT_STATUSES } from '../../../modules/incidents/index.ts';
import { SLA_PERIODS } from '../../../modules/reports/index.ts';
import { NOTICE_IMPACTS, NOTICE_KINDS, NOTICE_STATUSES } from '../../../modules/status-pages/index.ts';
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

const autoNotices = Type.Boolean({
  'x-issue': 'must be true or false',
  description:
    'A monitor incident (opened and alerting) drafts an unpublished incident notice on this page, naming the monitor, since when and the regions that saw it, for a person to publish. Default false.',
});

const groupsInput = Type.Array(
  Type.Object(
    {
      name: Type.String({
        maxLength: 100,
        pattern: '\\S',
        'x-issue': 'must be a non-empty string of at most 100 characters',
      }),
      monitor_ids: monitorIds("The group's monitors in this order."),
      collapsed: Type.Optional(
        Type.Boolean({ 'x-issue': 'must be true or false', description: 'Shown folded. Default false.' }),
      ),
    },
    { additionalProperties: false },
  ),
  {
    maxItems: 50,
    description:
      'Ordered groups of monitors, shown before the ungrouped ones (monitor_ids). A monitor is on the page once: in one group or ungrouped. Replaces the groups.',
  },
);

const customDomain = Nullable(
  Type.String({
    maxLength: 253,
    pattern: '^[A-Za-z0-9.-]+$',
    'x-issue': 'must be a host name such as status.example.com (no scheme, port or path)',
    description:
      "Host name the page is also served at (its root, when a request's Host matches; TLS is the operator's proxy). Stored in lower case; unique across pages; null removes it.",
  }),
);

const access = lit(['public', 'password'] as const, {
  description:
    'password: the public page, its JSON and every public route of the page need a page session opened with the password.',
});

const password = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 200,
    'x-issue': 'must be a string of 10 to 200 characters',
    description:
      'Write-only: the page password (10–200 characters), stored hashed; changing it ends every page session. null removes it (only while access is public).',
  }),
);

const timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  'x-issue': 'must be an IANA time zone such as Europe/Berlin',
  description: 'IANA time zone of the times shown on the public page. Default UTC.',
});

const subscriptionsEnabled = Type.Boolean({
  'x-issue': 'must be true or false',
  description:
    'Let visitors subscribe to the page (email with double opt-in) and show the subscribe form on the public page. Default false.',
});

export const StatusPageRecord = Type.Object(
  {
    id: Type.String({ description: 'stp_…' }),
    slug,
    title: Type.String(),
    monitor_ids: Type.Array(Type.String(), {
      description: 'Ungrouped monitors shown (after the groups), in this order.',
    }),
    public: Type.Boolean({ description: 'false: /status/{slug} answers 404.' }),
    show_sla_targets: Type.Boolean({
      description:
        "Whether the public page shows the current period's achievement of each SLA target whose monitors are all on the page.",
    }),
    allow_embedding: Type.Boolean({ description: 'Whether other sites may show the public page in a frame.' }),
    auto_notices: Type.Boolean({ description: 'Whether monitor incidents draft notices on this page.' }),
    groups: Type.Array(
      Type.Object({
        name: Type.String(),
        monitor_ids: Type.Array(Type.String()),
        collapsed: Type.Boolean(),
      }),
      { description: 'Ordered groups of monitors, shown before the ungrouped ones.' },
    ),
    custom_domain: Nullable(Type.String({ description: 'Host name the page is also served at, or null.' })),
    access: lit(['public', 'password'] as const),
    password_set: Type.Boolean({
      description: 'Whether the page has a password (the password itself is never shown).',
    }),
    timezone: Type.String({ description: 'IANA time zone of the times shown on the public page.' }),
    subscriptions_enabled: Type.Boolean({ description: 'Whether visitors may subscribe to the page.' }),
    url: Type.String({ description: 'Address of the public page.' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    ...MANAGED_FIELDS,
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
    auto_notices: Type.Optional(autoNotices),
    groups: Type.Optional(groupsInput),
    custom_domain: Type.Optional(customDomain),
    access: Type.Optional(access),
    password: Type.Optional(password),
    timezone: Type.Optional(timezone),
    subscriptions_enabled: Type.Optional(subscriptionsEnabled),
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
    auto_notices: Type.Optional(autoNotices),
    groups: Type.Optional(groupsInput),
    custom_domain: Type.Optional(customDomain),
    access: Type.Optional(access),
    password: Type.Optional(password),
    timezone: Type.Optional(timezone),
    subscriptions_enabled: Type.Optional(subscriptionsEnabled),
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
  maintenance_seconds: Type.Number({
    description:
      'Time that day inside maintenance windows with exclude_from_sla (not monitored: neither up nor down, as in the ' +
      'availability report).',
  }),
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

const PublicNotice = Type.Object({
  id: Type.String({ description: 'ntc_…' }),
  kind: lit(NOTICE_KINDS),
  title: Type.String(),
  impact: lit(NOTICE_IMPACTS),
  status: Nullable(lit(NOTICE_STATUSES)),
  affected_monitor_ids: Type.Array(Type.String(), { description: "The page's monitors it affects." }),
  published_at: Timestamp(),
  resolved_at: Nullable(Timestamp()),
  updated_at: Timestamp('Its latest update, publication or postmortem.'),
  updates: Type.Array(
    Type.Object({
      id: Type.String({ description: 'ntu_…' }),
      status: Nullable(lit(NOTICE_STATUSES)),
      body: Type.String({ description: 'Markdown as written.' }),
      created_at: Timestamp(),
    }),
    { description: 'Newest first.' },
  ),
  postmortem: Nullable(Type.String({ description: 'Markdown; null unless published.' })),
  postmortem_published_at: Nullable(Timestamp()),
});

export const PublicStatus = Type.Object(
  {
    slug: Type.String(),
    title: Type.String(),
    timezone: Type.String({ description: 'IANA time zone the HTML page shows its times in.' }),
    groups: Type.Array(
      Type.Object({
        name: Type.String(),
        collapsed: Type.Boolean(),
        monitor_ids: Type.Array(Type.String()),
        status: lit(['operational', 'degraded', 'degraded_performance', 'paused', 'pending', 'maintenance'] as const, {
          description:
            "The worst state among the group's monitors (degraded, degraded_performance, maintenance, pending, paused, " +
            'operational).',
        }),
      }),
      { description: "The page's groups in order; monitors lists the grouped monitors first, group by group." },
    ),
    status: lit(['operational', 'degraded', 'degraded_performance'] as const, {
      description:
        'degraded: a monitor is down; degraded_performance: none is down and one is degraded (slow, or failing in ' +
        'fewer regions than confirm_regions: "Degraded performance", not an outage).',
    }),
    generated_at: Timestamp(),
    monitors: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        status: lit(['operational', 'degraded', 'degraded_performance', 'paused', 'pending', 'maintenance'] as const),
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
    notices: Type.Array(PublicNotice, { description: 'Published notices still open, most severe first, then newest.' }),
    past_notices: Type.Array(PublicNotice, {
      description: 'Published notices resolved in the last 14 days, newest first (at most 50).',
    }),
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
