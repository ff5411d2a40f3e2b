import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type } from '@sinclair/typebox';
import { FREQUENCIES, LAST_STATUSES, REPORT_TYPES } from '../../../modules/scheduled-reports/index.ts';
import { ListOf, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
const enumOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({
    type: 'string',
    enum: [...values],
    description,
    'x-issues': { type: oneOf(values), enum: oneOf(values) },
  });

const reportType = enumOf(REPORT_TYPES, 'Which report is delivered; `custom` goes with custom_report_id.');
const frequency = enumOf(FREQUENCIES, 'daily, weekly (with day_of_week), monthly or quarterly (with day_of_month).');
const dowIssue = 'must be an integer from 0 (Sunday) to 6 (Saturday)';
const dayOfWeek = Type.Integer({
  minimum: 0,
  maximum: 6,
  description: 'weekly only: 0 = Sunday, 1 = Monday … 6 = Saturday.',
  'x-issues': { type: dowIssue, minimum: dowIssue, maximum: dowIssue },
});
const domIssue = 'must be an integer from 1 to 28 (every month has it)';
const dayOfMonth = Type.Integer({
  minimum: 1,
  maximum: 28,
  description: 'monthly and quarterly only: 1 to 28. Quarterly runs in January, April, July and October.',
  'x-issues': { type: domIssue, minimum: domIssue, maximum: domIssue },
});
const timeIssue = 'must be a local time HH:MM from 00:00 to 23:59';
const timeOfDay = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description:
    'Local time of delivery in `timezone`. A time that a DST change skips moves forward by the gap; a time that ' +
    'happens twice is taken the first time.',
  'x-issues': { type: timeIssue, pattern: timeIssue },
});
const tzIssue = 'must be an IANA time zone such as Europe/Berlin';
const timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone name, e.g. Europe/Berlin.',
  'x-issues': { type: tzIssue, minLength: tzIssue, maxLength: tzIssue },
});
const destIssue = 'must be an array of 1 to 20 distinct destination ids';
const destinationIds = Type.Array(
  Type.String({
    pattern: '^dst_[0-9a-z]{26}$',
    'x-issues': { type: 'must be a destination id', pattern: 'must be a destination id' },
  }),
  {
    minItems: 1,
    maxItems: 20,
    uniqueItems: true,
    description:
      'Destinations of this organization that receive the `scheduled_report` event, whatever their events lists say. ' +
      'Pager and incident-tool destinations are refused (a report is not an alert).',
    'x-issues': { type: destIssue, minItems: destIssue, maxItems: destIssue, uniqueItems: destIssue },
  },
);
const crpIssue = 'must be a custom report id (crp_…)';
const customReportId = Type.String({
  pattern: '^crp_[0-9a-z]{26}$',
  description:
    "With report_type `custom` only: the custom report delivered, over its own period. The schedule is seen, changed and run only by those who see that report (a private report's: its owner alone, not admins).",
  'x-issues': { type: crpIssue, pattern: crpIssue },
});
const enabled = Type.Boolean({
  description: 'false pauses the schedule without deleting it (default true).',
  'x-issues': { type: 'must be true or false' },
});
const unknownField = {
  additionalProperties: 'is not a field of scheduled reports (they take the fields listed, never a cron expression)',
  type: 'must be a JSON object',
};
const nullable = <T extends ReturnType<typeof Type.Integer> | ReturnType<typeof Type.String>>(s: T) =>
  Type.Union([s, Type.Null()], { description: s.description, 'x-issues': s['x-issues'] as unknown });

export const ScheduledReportRecord = Type.Object(
  {
    id: Type.String({ description: 'srp_…' }),
    report_type: Type.String({ enum: [...REPORT_TYPES] }),
    custom_report_id: Type.Union([Type.String(), Type.Null()]),
    frequency: Type.String({ enum: [...FREQUENCIES] }),
    day_of_week: Type.Union([Type.Integer(), Type.Null()], { description: '0 = Sunday … 6 = Saturday.' }),
    day_of_month: Type.Union([Type.Integer(), Type.Null()]),
    time_of_day: Type.String(),
    timezone: Type.String(),
    destination_ids: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    next_run_at: Timestamp('Read-only: the next scheduled run (a paused schedule keeps it but does not run).'),
    last_run_at: NullableTimestamp('Read-only: when the last run was made.'),
    last_status: Type.String({
      enum: [...LAST_STATUSES],
      description:
        'Read-only: never_run, or how the last run went once all its deliveries ended: delivered (all accepted), ' +
        'partially_delivered, failed. While a run is still being delivered it shows the run before.',
    }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    ...MANAGED_FIELDS,
  },
  { $id: 'ScheduledReport', title: 'ScheduledReport' },
);

export const ScheduledReportList = ListOf(Type.Ref(ScheduledReportRecord), 'ScheduledReportList');
export const ScheduledReportListQuery = Type.Object({ ...PageQuery });

export const ScheduledReportCreateBody = Type.Object(
  {
    report_type: reportType,
    custom_report_id: Type.Optional(customReportId),
    frequency,
    day_of_week: Type.Optional(dayOfWeek),
    day_of_month: Type.Optional(dayOfMonth),
    time_of_day: timeOfDay,
    timezone,
    destination_ids: destinationIds,
    enabled: Type.Optional(enabled),
  },
  {
    'x-issues': unknownField,
    description:
      'weekly needs day_of_week; monthly and quarterly need day_of_month; daily takes neither; custom needs ' +
      'custom_report_id and other types refuse it. Unknown fields (such as cron) are rejected.',
  },
);

export const ScheduledReportPatchBody = Type.Object(
  {
    report_type: Type.Optional(reportType),
    custom_report_id: Type.Optional(nullable(customReportId)),
    frequency: Type.Optional(frequency),
    day_of_week: Type.Optional(nullable(dayOfWeek)),
    day_of_month: Type.Optional(nullable(dayOfMonth)),
    time_of_day: Type.Optional(timeOfDay),
    timezone: Type.Optional(timezone),
    destination_ids: Type.Optional(destinationIds),
    enabled: Type.Optional(enabled),
  },
  {
    'x-issues': unknownField,
    description:
      'Fields to change; the rules of creation apply to the result. Changing the frequency drops a day the new ' +
      'frequency does not use. next_run_at is recomputed when the frequency, a day, the time or the zone change, ' +
      'and when a paused schedule is enabled again.',
  },
);

export const ScheduledReportRunsQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: 'How many of the latest runs (default 20).',
      'x-issues': {
        type: 'must be an integer from 1 to 100',
        minimum: 'must be an integer from 1 to 100',
        maximum: 'must be an integer from 1 to 100',
      },
    }),
  ),
});

const RunDeliverySchema = Type.Object({
  destination_id: Type.String(),
  destination_name: Type.Union([Type.String(), Type.Null()], { description: 'Null once the destination is deleted.' }),
  destination_type: Type.Union([Type.String(), Type.Null()]),
  status: Type.String({
    enum: ['pending', 'in_flight', 'delivered', 'logged', 'failed'],
    description:
      'pending (waiting or retrying), in_flight, delivered (accepted), logged (not sent: email without an SMTP ' +
      'server, written to the server log) or failed (given up).',
  }),
  attempts: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the last attempt failed (cleared when a later attempt delivers).',
  }),
  delivered_at: NullableTimestamp(),
});

export const ScheduledReportRunSchema = Type.Object(
  {
    id: Type.String({ description: 'The run’s event id.' }),
    manual: Type.Boolean({ description: 'Asked for by POST /{id}/run rather than scheduled.' }),
    period: Type.Object({ from: Timestamp(), to: Timestamp('Exclusive.') }),
    status: Type.String({
      enum: ['delivering', 'delivered', 'partially_delivered', 'failed'],
      description: 'delivering until every delivery has ended; then as last_status.',
    }),
    started_at: Timestamp(),
    ended_at: NullableTimestamp(),
    destination_count: Type.Integer({ description: 'Destinations the run was addressed to.' }),
    missing_destinations: Type.Integer({
      description: 'Of those, deleted before the run was sent: not delivered, with no delivery below.',
    }),
    deliveries: Type.Array(RunDeliverySchema),
  },
  { $id: 'ScheduledReportRun', title: 'ScheduledReportRun' },
);

export const ScheduledReportRuns = Type.Object(
  { data: Type.Array(Type.Ref(ScheduledReportRunSchema)) },
  { $id: 'ScheduledReportRuns', title: 'ScheduledReportRuns' },
);

export const ReportFileParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const ReportFileQuery = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The token of the link the delivery carried (valid 7 days).',
    'x-issues': { type: 'is required', minLength: 'is required' },
  }),
});
