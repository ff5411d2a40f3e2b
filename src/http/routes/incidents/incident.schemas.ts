import { Type } from '@sinclair/typebox';
import { DELIVERY_STATUSES, DESTINATION_TYPES } from '../../../modules/alerting/index.ts';
import { EVENT_TYPES } from '../../../modules/events/index.ts';
import { INCIDENT_SOURCES, INCIDENT_STATUSES, TIMELINE_TYPES } from '../../../modules/incidents/index.ts';
import {
  HourOrDayWindow,
  ListOf,
  Nullable,
  NullableTimestamp,
  PageQuery,
  Timestamp,
} from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const incidentFields = {
  id: Type.String({ description: 'inc_…' }),
  number: Type.Integer({ description: 'Sequential per organization, from 1.' }),
  title: Type.String(),
  source: lit(INCIDENT_SOURCES),
  monitor_id: Nullable(Type.String()),
  cause: Nullable(
    Type.String({ description: 'For monitor incidents, the failing reason, e.g. "HTTP 503 (expected 200)".' }),
  ),
  status: lit(INCIDENT_STATUSES),
  opened_at: Timestamp(),
  down_since: Timestamp(
    'When the outage began: for a monitor incident the first failing check of the run that opened it (at or ' +
      'before opened_at); otherwise opened_at.',
  ),
  acknowledged_at: NullableTimestamp(),
  acknowledged_by: Nullable(Type.String({ description: 'User or key id.' })),
  resolved_at: NullableTimestamp(),
  resolved_by: Nullable(
    Type.String({ description: '"auto" when resolved by recovery (or monitor deletion), else a user or key id.' }),
  ),
  duration_seconds: Type.Integer({
    description:
      'The outage: down_since to resolved_at (while open, to now). The same figure as the reports, the status ' +
      'pages and the alert messages.',
  }),
  time_to_acknowledge_seconds: Nullable(
    Type.Integer({ description: 'opened_at to acknowledged_at; null until acknowledged.' }),
  ),
  time_to_resolve_seconds: Nullable(Type.Integer({ description: 'opened_at to resolved_at; null while open.' })),
  blocked_by: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Only on a monitor incident opened while parents (config.depends_on) were down or in maintenance: those ' +
        'parents. Its alert (down, incident_opened) was held back; docs/dependencies.md.',
    }),
  ),
  suppressed_by: Type.Optional(
    Nullable(
      Type.String({ description: 'With blocked_by: the down parent’s incident (null for a parent in maintenance).' }),
    ),
  ),
  alert_released_at: Type.Optional(
    NullableTimestamp(
      'With blocked_by: when every parent had recovered and, the monitor still down, its alert went out; null while ' +
        'held, and for ever when it recovered first (then nothing is sent for it at all).',
    ),
  ),
  created_at: Timestamp(),
  updated_at: Timestamp(),
};

export const IncidentRecord = Type.Object(incidentFields, { $id: 'Incident', title: 'Incident' });

export const TimelineEntryRecord = Type.Object(
  {
    type: lit(TIMELINE_TYPES),
    at: Timestamp(),
    actor: Nullable(Type.String({ description: '"auto" for the system, else a user or key id.' })),
    actor_name: Nullable(
      Type.String({ description: 'The name (else the email) of the person `actor` names; null for "auto" and keys.' }),
    ),
    message: Nullable(Type.String()),
  },
  { $id: 'IncidentTimelineEntry', title: 'IncidentTimelineEntry' },
);

export const IncidentCorrelationRecord = Type.Object(
  {
    id: Type.String({ description: 'cor_… (see GET /api/v1/intelligence/correlations).' }),
    attribute: lit(['address', 'certificate_issuer', 'cdn', 'dns_provider', 'region'] as const),
    value: Type.String({ description: 'The shared value, e.g. an address or a CDN name.' }),
    other_monitor_ids: Type.Array(Type.String(), {
      description: 'The other monitors failing together with this one (only those in the key’s environments).',
    }),
    summary: Type.String(),
    started_at: Timestamp(),
    last_seen_at: Timestamp(),
  },
  { $id: 'IncidentCorrelation', title: 'IncidentCorrelation' },
);

export const IncidentDetail = Type.Object(
  {
    ...incidentFields,
    timeline: Type.Array(Type.Ref(TimelineEntryRecord), { description: 'Oldest first.' }),
    correlations: Type.Array(Type.Ref(IncidentCorrelationRecord), {
      description:
        'Correlations involving the incident’s monitor while it was open (from 5 minutes before opening): ' +
        'monitors failing or turning anomalous together that share an attribute. Oldest first.',
    }),
  },
  { $id: 'IncidentDetail', title: 'IncidentDetail' },
);

export const IncidentList = ListOf(Type.Ref(IncidentRecord), 'IncidentList');

export const IncidentListQuery = Type.Object({
  ...PageQuery,
  status: Type.Optional(lit(INCIDENT_STATUSES)),
  monitor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  source: Type.Optional(lit(INCIDENT_SOURCES)),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Incidents not resolved before this time.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Incidents opened before this time.' })),
});

export const IncidentCreateBody = Type.Object(
  {
    title: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      'x-issue': 'is required and must be a non-empty string',
    }),
    cause: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    monitor_id: Type.Optional(
      Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'A monitor the key can see.' })),
    ),
  },
  { description: 'Opens an incident with source "api". Unknown fields are rejected.' },
);

export const IncidentDeliveryRecord = Type.Object(
  {
    id: Type.String({ description: 'dlv_…: the same on every attempt (the `X-Service-Delivery` header).' }),
    destination: Nullable(
      Type.Object({
        id: Type.String({ description: 'dst_…' }),
        name: Nullable(
          Type.String({
            description: 'Null once the destination was deleted, or for a key without destinations:read.',
          }),
        ),
        type: Nullable(lit(DESTINATION_TYPES)),
      }),
    ),
    member: Nullable(
      Type.Object(
        {
          user_id: Type.String(),
          email: Nullable(Type.String({ description: 'Null for a key without destinations:read.' })),
        },
        { description: 'The organization-wide email to one verified member (then `destination` is null).' },
      ),
    ),
    event: Type.Object({
      id: Type.String({ description: 'evt_…' }),
      type: lit(EVENT_TYPES),
      occurred_at: Timestamp(),
    }),
    status: lit(DELIVERY_STATUSES),
    outcome: lit(['queued', 'sending', 'retrying', 'delivered', 'logged', 'failed', 'silenced', 'grouped'] as const),
    attempts: Type.Integer({ description: 'Attempts made so far.' }),
    next_attempt_at: NullableTimestamp('When the next attempt is due (queued or retrying), else null.'),
    last_error: Nullable(Type.String({ description: 'Why the last attempt failed (a retry or the final failure).' })),
    note: Nullable(
      Type.String({
        description:
          'What happened instead of a delivery, for `logged`: "Not sent: no SMTP server is configured (smtp); ' +
          'the mail was written to the server log". Null otherwise.',
      }),
    ),
    created_at: Timestamp(),
    updated_at: Timestamp('The last attempt ended (or the delivery was made) at this time.'),
    delivered_at: NullableTimestamp(),
    silence_id: Nullable(Type.String({ description: 'sil_… that held this delivery back (outcome `silenced`).' })),
    group_delivery_id: Nullable(
      Type.String({
        description:
          'dlv_… that sends this delivery’s group as one message (DECISIONS §17; its own id for the first of the ' +
          'group); null when not grouped.',
      }),
    ),
  },
  {
    $id: 'IncidentDelivery',
    title: 'IncidentDelivery',
    description:
      'One delivery of one of the incident’s events to one destination. `outcome`: `queued` (not tried yet), ' +
      '`sending`, `retrying` (an attempt failed: `last_error`, next at `next_attempt_at`), `delivered`, `logged` ' +
      '(not sent: an email while no SMTP server is configured, written to the server log; `note`), `failed` ' +
      '(given up: a 4xx other than 408/429, or the retries ran out; `last_error` says why), `silenced` (held ' +
      'back by the silence `silence_id`: never sent), `grouped` (waits for its group’s message, sent as ' +
      '`group_delivery_id`; then it takes that delivery’s outcome).',
  },
);

export const IncidentDeliveryList = ListOf(Type.Ref(IncidentDeliveryRecord), 'IncidentDeliveryList');

export const IncidentHistoryQuery = Type.Object(HourOrDayWindow);

export const IncidentHistory = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        start: Timestamp(),
        end: Timestamp(),
        opened: Type.Integer({ description: 'Incidents opened in [start, end) that the caller may see.' }),
      }),
      { description: 'Every bucket of the range, oldest first (from rounded down, to rounded up to the bucket).' },
    ),
  },
  { $id: 'IncidentHistory', title: 'IncidentHistory' },
);
