import { Type } from '@sinclair/typebox';
import { HourOrDayWindow, Nullable, Timestamp } from '../../schemas/common.schemas.ts';

export const HistoryBucketSchema = Type.Object(
  {
    start: Timestamp(),
    end: Timestamp(),
    checks: Type.Integer(),
    failures: Type.Integer(),
    uptime_percent: Nullable(
      Type.Number({ description: '100 × (checks − failures) / checks; null when there were no checks.' }),
    ),
    p50_ms: Nullable(Type.Number()),
    p95_ms: Nullable(Type.Number()),
    p99_ms: Nullable(
      Type.Number({
        description:
          'Latency percentiles of successful checks; from DDSketch (±1%) at hour/day resolution, exact at minute.',
      }),
    ),
  },
  { $id: 'HistoryBucket', title: 'HistoryBucket' },
);

export const HistoryResponse = Type.Object(
  { data: Type.Array(Type.Ref(HistoryBucketSchema)) },
  { $id: 'History', title: 'History' },
);

export const HistoryQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 24 hours before to.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now.' })),
  resolution: Type.Optional(
    Type.Union([Type.Literal('minute'), Type.Literal('hour'), Type.Literal('day')], {
      default: 'hour',
      description:
        'minute: from raw executions, within retention, at most 24 h; hour: at most 93 days; day: at most 1,100 days (UTC days).',
    }),
  ),
  region_code: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'One region; default all regions together.' }),
  ),
});

export const HistoryManyResponse = Type.Object(
  {
    data: Type.Array(Type.Object({ monitor_id: Type.String(), buckets: Type.Array(Type.Ref(HistoryBucketSchema)) }), {
      description:
        'One entry per requested monitor that exists and is visible to the caller (others are left out), in the ' +
        'order asked.',
    }),
  },
  { $id: 'HistoryMany', title: 'HistoryMany' },
);

/** The range of a history of several monitors (no minute resolution: that is per monitor). */
const hourOrDayRange = {
  ...HourOrDayWindow,
  region_code: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'One region; default all regions together.' }),
  ),
};

export const HistoryManyQuery = Type.Object({
  monitor_ids: Type.String({
    minLength: 1,
    maxLength: 100 * 40,
    description: 'Comma-separated monitor ids, at most 100.',
  }),
  ...hourOrDayRange,
});

export const HistoryTotalResponse = Type.Object(
  {
    data: Type.Array(
      Type.Object({
        start: Timestamp(),
        end: Timestamp(),
        checks: Type.Integer({ description: "All the monitors' checks in the bucket." }),
        failures: Type.Integer(),
        uptime_percent: Nullable(
          Type.Number({
            description:
              '100 × (checks − failures) / checks over all the monitors (a busy monitor weighs more than a quiet ' +
              'one); null when nothing was checked.',
          }),
        ),
      }),
      { description: 'Every bucket of the range, oldest first.' },
    ),
    monitors: Type.Integer({ description: 'How many monitors were counted: every one the caller sees.' }),
  },
  { $id: 'HistoryTotal', title: 'HistoryTotal' },
);

export const HistoryTotalQuery = Type.Object(hourOrDayRange);

export const HISTORY_SCHEMAS = [HistoryBucketSchema, HistoryResponse, HistoryManyResponse, HistoryTotalResponse];
