import { Type } from '@sinclair/typebox';
import { NullableTimestamp } from '../../schemas/common.schemas.ts';
import { MonitorRecord } from './monitor.schemas.ts';

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
