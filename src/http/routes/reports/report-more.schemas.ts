import { Type } from '@sinclair/typebox';
import { INCIDENT_SOURCES, INCIDENT_STATUSES } from '../../../modules/incidents/index.ts';
import {
  INTELLIGENCE_CATEGORIES,
  INTELLIGENCE_KINDS,
  INTELLIGENCE_SEVERITIES,
} from '../../../modules/intelligence/index.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../schemas/common.schemas.ts';
import { ReportQuery } from './report.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Counts = <T extends string>(keys: readonly T[], description: string) =>
  Type.Object(Object.fromEntries(keys.map((k) => [k, Type.Integer()])) as Record<T, ReturnType<typeof Type.Integer>>, {
    description,
  });
const Facts = Nullable(Type.Object({}, { additionalProperties: true }));

const Period = Type.Object({
  from: Timestamp(),
  to: Timestamp('Exclusive.'),
  timezone: Type.String(),
  preset: Nullable(Type.String({ description: 'The preset used; null for from/to.' })),
});

const head = {
  period: Period,
  generated_at: Timestamp(),
  methodology: Type.String({ description: 'Which records were counted and how.' }),
};

const Seconds = (description: string) => Nullable(Type.Number({ description }));

export const IncidentReportRowSchema = Type.Object(
  {
    id: Type.String(),
    number: Type.Integer(),
    title: Type.String(),
    source: lit(INCIDENT_SOURCES),
    monitor_id: Nullable(Type.String()),
    cause: Nullable(Type.String()),
    status: lit(INCIDENT_STATUSES),
    opened_at: Timestamp(),
    down_since: Timestamp('First failing check of the outage that opened it (opened_at for other sources).'),
    acknowledged_at: NullableTimestamp(),
    resolved_at: NullableTimestamp(),
    duration_seconds: Type.Number({ description: 'down_since → resolved_at, or → now while open.' }),
    time_to_acknowledge_seconds: Seconds('acknowledged_at − opened_at; null when never acknowledged.'),
    time_to_resolve_seconds: Seconds('resolved_at − opened_at; null while open.'),
  },
  { $id: 'IncidentReportRow', title: 'IncidentReportRow' },
);

export const IncidentsReportSchema = Type.Object(
  {
    report: Type.Literal('incidents'),
    ...head,
    summary: Type.Object({
      count: Type.Integer({ description: 'Incidents overlapping the period.' }),
      by_source: Counts(INCIDENT_SOURCES, 'count by source (every source present).'),
      mtta_seconds: Seconds('Mean time to acknowledge over the acknowledged incidents.'),
      mttr_seconds: Seconds('Mean time to resolve over the resolved incidents.'),
      median_tta_seconds: Seconds('Median time to acknowledge.'),
      median_ttr_seconds: Seconds('Median time to resolve.'),
      opened: Type.Integer({ description: 'Opened inside the period (Σ daily.opened).' }),
      acknowledged: Type.Integer(),
      resolved: Type.Integer(),
      open: Type.Integer({ description: 'Not resolved when the report was made.' }),
      open_at_period_end: Type.Integer({ description: 'Not resolved at the end of the period (or now).' }),
    }),
    incidents: Type.Array(Type.Ref(IncidentReportRowSchema)),
    daily: Type.Array(
      Type.Object({
        date: Type.String({ description: 'YYYY-MM-DD in the report time zone.' }),
        opened: Type.Integer(),
      }),
    ),
  },
  { $id: 'IncidentsReport', title: 'IncidentsReport' },
);

export const IntelligenceReportSchema = Type.Object(
  {
    report: Type.Literal('intelligence'),
    ...head,
    summary: Type.Object({
      events: Type.Integer(),
      by_category: Counts(INTELLIGENCE_CATEGORIES, 'Events per category (every category present).'),
      by_severity: Counts(INTELLIGENCE_SEVERITIES, 'Events per severity.'),
      by_monitor: Type.Record(Type.String(), Type.Integer(), { description: 'Events per monitor id.' }),
    }),
    events: Type.Array(
      Type.Object({
        id: Type.String(),
        monitor_id: Type.String(),
        monitor_name: Nullable(Type.String()),
        region_code: Nullable(Type.String()),
        category: lit(INTELLIGENCE_CATEGORIES),
        kind: lit(INTELLIGENCE_KINDS),
        severity: lit(INTELLIGENCE_SEVERITIES),
        summary: Type.String(),
        before: Facts,
        after: Facts,
        started_at: Timestamp(),
        ended_at: NullableTimestamp(),
        incident_id: Nullable(Type.String()),
        created_at: Timestamp(),
      }),
    ),
    correlations: Type.Array(
      Type.Object({
        id: Type.String(),
        monitor_ids: Type.Array(Type.String()),
        shared: Type.Object(
          { attribute: Type.String(), value: Type.String() },
          { description: 'What the monitors share: address, cdn, dns_provider, certificate_issuer or region.' },
        ),
        window: Type.Object({ from: Timestamp(), to: Timestamp() }),
        events: Type.Array(Type.String(), {
          description: 'Ids of this report’s events of these monitors in the window.',
        }),
        coverage: Type.Number(),
        summary: Type.String(),
      }),
    ),
  },
  { $id: 'IntelligenceReport', title: 'IntelligenceReport' },
);

export const MonitorHealthReportSchema = Type.Object(
  {
    report: Type.Literal('monitor_health'),
    ...head,
    summary: Type.Object({
      monitors: Type.Integer(),
      flagged: Type.Integer(),
      findings: Counts(['noisy', 'flapping', 'misconfigured', 'never_succeeded'] as const, 'Findings per kind.'),
    }),
    monitors: Type.Array(
      Type.Object({
        monitor_id: Type.String(),
        name: Type.String(),
        findings: Type.Array(
          Type.Object({
            kind: lit(['noisy', 'flapping', 'misconfigured', 'never_succeeded'] as const),
            reason: Type.String({ description: 'Why, with the numbers.' }),
            evidence: Type.Object({}, { additionalProperties: true, description: 'The figures and thresholds.' }),
          }),
        ),
      }),
    ),
  },
  { $id: 'MonitorHealthReport', title: 'MonitorHealthReport' },
);

/** The export's query: the report query, CSV by default. */
export const ExportQuery = Type.Object({
  ...ReportQuery.properties,
  format: Type.Optional(lit(['csv', 'json', 'pdf'] as const)),
});
