import { Type } from '@sinclair/typebox';
import { NullableTimestamp, Timestamp } from '../../schemas/common.schemas.ts';

export const MonitorStatePeriodSchema = Type.Object(
  {
    state: Type.Union(
      [Type.Literal('down'), Type.Literal('degraded'), Type.Literal('maintenance'), Type.Literal('paused')],
      {
        description:
          'down: from the first failing check of the confirmed outage to the check that ended it; degraded: slower ' +
          'than degraded_latency_ms or failing in fewer regions than confirm_regions; maintenance: covered by any ' +
          'maintenance window of the monitor; paused: paused by a user.',
      },
    ),
    start: Timestamp('Clipped to from.'),
    end: Timestamp('Clipped to to (and to now: the future has no state).'),
  },
  { $id: 'MonitorStatePeriod', title: 'MonitorStatePeriod' },
);

export const MonitorPeriodIncidentSchema = Type.Object(
  {
    id: Type.String(),
    number: Type.Integer(),
    title: Type.String(),
    status: Type.Union([Type.Literal('opened'), Type.Literal('acknowledged'), Type.Literal('resolved')]),
    down_since: Timestamp('When the outage began (the first failing check), else opened_at.'),
    opened_at: Timestamp(),
    acknowledged_at: NullableTimestamp(),
    resolved_at: NullableTimestamp('null while the incident is open.'),
  },
  { $id: 'MonitorPeriodIncident', title: 'MonitorPeriodIncident' },
);

export const MonitorPeriodsResponse = Type.Object(
  {
    from: Timestamp(),
    to: Timestamp(),
    periods: Type.Array(Type.Ref(MonitorStatePeriodSchema), {
      description: 'Oldest first, disjoint; up time and time without a verdict are not listed.',
    }),
    incidents: Type.Array(Type.Ref(MonitorPeriodIncidentSchema), {
      description: "The monitor's incidents overlapping [from, to), in opening order, not clipped.",
    }),
  },
  { $id: 'MonitorPeriods', title: 'MonitorPeriods' },
);

export const MonitorPeriodsQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 24 hours before to.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now. At most 400 days after from.' })),
});

export const PERIODS_SCHEMAS = [MonitorStatePeriodSchema, MonitorPeriodIncidentSchema, MonitorPeriodsResponse];
