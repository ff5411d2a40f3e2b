import { Type } from '@sinclair/typebox';
import { NullableTimestamp } from '../../schemas/common.schemas.ts';
import { MonitorListQuery, MonitorRecord } from './monitor.schemas.ts';

/**
 * A monitor as a list row shows it (issue 36 item 7): what identifies it and its state, without the configuration
 * (assertions, headers, bodies), which is most of a full record's size. Field meanings as in Monitor.
 */
export const MonitorSummaryRecord = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    type: MonitorRecord.properties.type,
    target: Type.String(),
    tags: Type.Array(Type.String()),
    environment: Type.String(),
    paused: Type.Boolean(),
    status: MonitorRecord.properties.status,
    last_checked_at: NullableTimestamp(),
    blocked_by: MonitorRecord.properties.blocked_by,
  },
  { $id: 'MonitorSummary', title: 'MonitorSummary' },
);

export const MonitorSummaryList = Type.Object(
  {
    data: Type.Array(Type.Ref(MonitorSummaryRecord)),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
    total: Type.Optional(
      Type.Integer({
        description: 'How many monitors match the filters in all: with the first page only (no `cursor`).',
      }),
    ),
  },
  { $id: 'MonitorSummaryList', title: 'MonitorSummaryList' },
);

/** GET /monitors/counts: the list's filters, without status, order or paging. */
export const MonitorCountsQuery = Type.Omit(MonitorListQuery, ['status', 'sort', 'limit', 'cursor']);

const count = (description: string) => Type.Integer({ minimum: 0, description });

/**
 * How many monitors the caller sees, per status as shown (issue 36: the overview's counts without the list). The
 * statuses are those of Monitor.status; each is present, 0 when none.
 */
export const MonitorCounts = Type.Object(
  {
    total: count('Every matching monitor (the sum of the statuses).'),
    by_status: Type.Object(
      {
        up: count('Checks pass.'),
        degraded: count('Slow, or failing in fewer regions than confirm_regions (not an outage).'),
        down: count('Failing.'),
        pending: count('Not judged yet (new or resumed).'),
        paused: count('Paused: not checked.'),
        maintenance: count('Not paused and covered by a maintenance window active now (by id or tag).'),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'MonitorCounts', title: 'MonitorCounts' },
);
