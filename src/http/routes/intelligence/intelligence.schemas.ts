import { Type } from '@sinclair/typebox';
import {
  INTELLIGENCE_CATEGORIES,
  INTELLIGENCE_KINDS,
  INTELLIGENCE_SEVERITIES,
} from '../../../modules/intelligence/index.ts';
import { ListOf, Nullable, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Facts = Nullable(Type.Object({}, { additionalProperties: true }));

export const IntelligenceEventRecord = Type.Object(
  {
    id: Type.String({ description: 'ine_…' }),
    monitor_id: Type.String(),
    region_code: Nullable(Type.String({ description: 'null for per-monitor events (security grades).' })),
    category: lit(INTELLIGENCE_CATEGORIES),
    kind: lit(INTELLIGENCE_KINDS),
    severity: lit(INTELLIGENCE_SEVERITIES),
    summary: Type.String({ description: 'What changed from what to what, or what crossed which line.' }),
    before: Facts,
    after: Facts,
    started_at: Timestamp(),
    ended_at: NullableTimestamp('When an anomaly, flapping or slow period ended; null while open and for changes.'),
    incident_id: Nullable(Type.String({ description: 'The incident it opened (config.intelligence_incidents).' })),
    created_at: Timestamp(),
  },
  { $id: 'IntelligenceEvent', title: 'IntelligenceEvent' },
);

export const IntelligenceEventList = ListOf(Type.Ref(IntelligenceEventRecord), 'IntelligenceEventList');

export const IntelligenceEventListQuery = Type.Object({
  ...PageQuery,
  monitor_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  category: Type.Optional(lit(INTELLIGENCE_CATEGORIES)),
  kind: Type.Optional(lit(INTELLIGENCE_KINDS)),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events not ended before this time.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events started before this time.' })),
});

const GradeFields = {
  kind: lit(['tls', 'domain'] as const),
  grade: Type.String({ description: 'TLS: A+ … F, T (not trusted), M (name mismatch). Domain: A+ … F.' }),
  score: Type.Number({ description: 'TLS: 0–100 before caps. Domain: the rubric percentage.' }),
  reasons: Type.Array(Type.String()),
  not_tested: Type.Array(Type.String(), { description: 'What a single client cannot measure.' }),
  graded_at: Timestamp(),
};

export const MonitorGrades = Type.Object(
  {
    monitor_id: Type.String(),
    current: Type.Array(Type.Object(GradeFields), { description: 'The latest grade of each kind.' }),
    history: Type.Array(Type.Object(GradeFields), { description: 'Gradings that changed something, newest first.' }),
  },
  { $id: 'MonitorGrades', title: 'MonitorGrades' },
);

export const CorrelationRecord = Type.Object(
  {
    id: Type.String({ description: 'cor_…' }),
    attribute: lit(['address', 'certificate_issuer', 'cdn', 'dns_provider', 'region'] as const),
    value: Type.String(),
    monitor_ids: Type.Array(Type.String(), { description: 'The monitors (that this key can see) failing together.' }),
    coverage: Type.Number({ description: 'Failing monitors with the value / all monitors with it.' }),
    summary: Type.String(),
    started_at: Timestamp(),
    last_seen_at: Timestamp(),
  },
  { $id: 'IntelligenceCorrelation', title: 'IntelligenceCorrelation' },
);

export const CorrelationList = Type.Object(
  { data: Type.Array(Type.Ref(CorrelationRecord)) },
  { $id: 'IntelligenceCorrelationList', title: 'IntelligenceCorrelationList' },
);

export const CorrelationQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 24 hours before `to`.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now.' })),
});
