import { Type } from '@sinclair/typebox';
import { PERIOD_PRESETS } from '../../../modules/reports/index.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );

export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;

export const ReportQuery = Type.Object({
  format: Type.Optional(lit(REPORT_FORMATS)),
  period: Type.Optional(lit(PERIOD_PRESETS)),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'RFC 3339; with `to` instead of `period`.' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'RFC 3339, exclusive; at most 400 days after `from`.' })),
  timezone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone of days and calendar periods. Default UTC.',
    }),
  ),
  monitor_ids: Type.Optional(
    Type.String({
      maxLength: 20_000,
      description: 'Comma-separated monitor ids (default: every monitor the key sees).',
    }),
  ),
  tags: Type.Optional(Type.String({ maxLength: 4_000, description: 'Comma-separated; monitors with at least one.' })),
});

const Period = Type.Object({
  from: Timestamp(),
  to: Timestamp('Exclusive.'),
  timezone: Type.String(),
  preset: Nullable(Type.String({ description: 'The preset used; null for from/to.' })),
});

const head = {
  period: Period,
  generated_at: Timestamp(),
  methodology: Type.String({ description: 'How downtime and percentiles were counted.' }),
};

const Percent = (description: string) => Nullable(Type.Number({ description }));

export const AvailabilityReportSchema = Type.Object(
  {
    report: Type.Literal('availability'),
    ...head,
    summary: Type.Object({
      monitors: Type.Integer(),
      uptime_percent: Percent('100 × Σ up seconds / Σ monitored seconds; null when nothing was monitored.'),
      downtime_seconds: Type.Number(),
      degraded_seconds: Type.Number({ description: 'Σ degraded_seconds of the monitors (already in the uptime).' }),
      monitored_seconds: Type.Number(),
      incidents: Type.Integer(),
    }),
    monitors: Type.Array(
      Type.Object({
        monitor_id: Type.String(),
        name: Type.String(),
        target: Type.String(),
        uptime_percent: Percent('100 × up / monitored seconds.'),
        downtime_seconds: Type.Number(),
        degraded_seconds: Type.Number({
          description:
            'Up time while the monitor was degraded (DECISIONS §20: slower than config.degraded_latency_ms, or ' +
            'failing in fewer regions than confirm_regions); counted as up in uptime_percent.',
        }),
        paused_seconds: Type.Number(),
        no_data_seconds: Type.Number({ description: 'Existing, not paused, without a verdict yet.' }),
        maintenance_seconds: Type.Number({
          description:
            'Inside maintenance windows with exclude_from_sla (DECISIONS §16): neither uptime nor downtime, not monitored.',
        }),
        unmonitored_seconds: Type.Number({ description: 'Before creation or after deletion.' }),
        monitored_seconds: Type.Number(),
        coverage_percent: Percent('100 × monitored / window seconds.'),
        checks: Type.Integer(),
        failed_checks: Type.Integer(),
        incident_count: Type.Integer(),
        longest_incident_seconds: Type.Number(),
        incidents: Type.Array(
          Type.Object({
            id: Type.String(),
            number: Type.Integer(),
            opened_at: Timestamp(),
            down_since: Timestamp('First failing check of the run that opened it.'),
            resolved_at: NullableTimestamp(),
            duration_seconds: Type.Number({ description: 'down_since → resolved_at (or now).' }),
            cause: Nullable(Type.String()),
          }),
        ),
        daily: Type.Array(
          Type.Object({
            date: Type.String({ description: 'YYYY-MM-DD in the report time zone.' }),
            uptime_percent: Percent('null: nothing monitored that day.'),
            downtime_seconds: Type.Number(),
            degraded_seconds: Type.Number(),
          }),
        ),
      }),
    ),
  },
  { $id: 'AvailabilityReport', title: 'AvailabilityReport' },
);

const percentiles = {
  p50_ms: Nullable(Type.Number()),
  p95_ms: Nullable(Type.Number()),
  p99_ms: Nullable(Type.Number()),
};

export const PerformanceReportSchema = Type.Object(
  {
    report: Type.Literal('performance'),
    ...head,
    summary: Type.Object({ monitors: Type.Integer(), checks: Type.Integer() }),
    monitors: Type.Array(
      Type.Object({
        monitor_id: Type.String(),
        name: Type.String(),
        target: Type.String(),
        checks: Type.Integer(),
        successful_checks: Type.Integer({ description: 'Checks whose latency is in the percentiles.' }),
        mean_ms: Nullable(Type.Number()),
        min_ms: Nullable(Type.Number()),
        max_ms: Nullable(Type.Number()),
        ...percentiles,
        previous: Type.Object(percentiles, { description: 'The window of the same length just before.' }),
        trend_percent: Percent('100 × (p95 − previous p95) / previous p95.'),
        anomalies: Type.Array(
          Type.Object({
            id: Type.String(),
            category: Type.String(),
            kind: Type.String(),
            severity: Type.String(),
            summary: Type.String(),
            region_code: Nullable(Type.String()),
            started_at: Timestamp(),
            ended_at: NullableTimestamp(),
          }),
        ),
        daily: Type.Array(Type.Object({ date: Type.String(), ...percentiles })),
      }),
    ),
  },
  { $id: 'PerformanceReport', title: 'PerformanceReport' },
);

const periodResult = {
  from: Timestamp(),
  to: Timestamp(),
  monitored_seconds: Type.Number(),
  downtime_seconds: Type.Number({ description: 'Union of the monitors’ downtime (combine: any_down).' }),
  achieved_percent: Percent('null: nothing monitored.'),
  met: Nullable(
    Type.Boolean({
      description:
        'A finished period: achieved ≥ target; null when nothing was monitored. The current period is not over: always null.',
    }),
  ),
};

export const SlaReportSchema = Type.Object(
  {
    report: Type.Literal('sla'),
    ...head,
    summary: Type.Object({
      targets: Type.Integer(),
      in_progress: Type.Integer({ description: 'Current periods with monitored time so far.' }),
      budget_exhausted: Type.Integer({ description: 'Current periods whose whole error budget is already spent.' }),
      no_data: Type.Integer({ description: 'Current periods with nothing monitored yet.' }),
      met: Type.Integer({ description: 'Earlier (finished) periods listed that met their target.' }),
      missed: Type.Integer({ description: 'Earlier (finished) periods listed that missed it.' }),
    }),
    targets: Type.Array(
      Type.Object({
        sla_target_id: Type.String(),
        name: Type.String(),
        target_percent: Type.Number(),
        period: Type.String(),
        combine: Type.Literal('any_down'),
        current: Type.Object({
          ...periodResult,
          status: lit(['in_progress', 'no_data'] as const, {
            description: 'The period is not over: neither met nor missed. no_data: nothing monitored yet.',
          }),
          elapsed_seconds: Type.Number(),
          error_budget_seconds: Type.Number({
            description: '(1 − target/100) × monitored seconds of the whole period (the rest of it counted).',
          }),
          error_budget_used_seconds: Type.Number(),
          error_budget_used_percent: Nullable(
            Type.Number({ description: '100 × used / budget (over 100 when overspent); null without a budget.' }),
          ),
          error_budget_exhausted: Nullable(
            Type.Boolean({
              description: 'The whole budget is spent (remaining ≤ 0): the period can no longer meet its target.',
            }),
          ),
          error_budget_remaining_seconds: Type.Number({ description: 'Negative when overspent.' }),
          error_budget_remaining_percent: Percent('100 × remaining / budget.'),
          burn_rate: Nullable(Type.Number({ description: 'Downtime fraction so far / (1 − target/100).' })),
        }),
        periods: Type.Array(
          Type.Object({
            ...periodResult,
            status: lit(['met', 'missed', 'no_data'] as const, { description: 'The finished period’s verdict.' }),
          }),
          { description: 'Earlier periods overlapping the range.' },
        ),
        monitors: Type.Array(
          Type.Object({
            monitor_id: Type.String(),
            name: Type.String(),
            achieved_percent: Percent('This monitor alone, current period so far.'),
            downtime_seconds: Type.Number(),
          }),
        ),
      }),
    ),
  },
  { $id: 'SlaReport', title: 'SlaReport' },
);
