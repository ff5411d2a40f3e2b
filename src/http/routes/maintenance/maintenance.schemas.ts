import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type } from '@sinclair/typebox';
import { ListOf, Nullable, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

/** The one schema per input of /maintenance-windows (DECISIONS §16): validates and documents it. */
const NAME_MAX = 200;
const DESCRIPTION_MAX = 2000;
const LIST_MAX = 500;
/** A week: a longer planned window is better split (and a recurring one could overlap itself). */
const DURATION_MAX_MINUTES = 7 * 24 * 60;

const nameIssue = `must be a non-empty string of at most ${NAME_MAX} characters`;
const name = Type.String({
  minLength: 1,
  maxLength: NAME_MAX,
  pattern: '\\S',
  description: 'Trimmed.',
  'x-issues': { type: nameIssue, minLength: nameIssue, maxLength: nameIssue, pattern: nameIssue },
});
const description = Nullable(Type.String({ maxLength: DESCRIPTION_MAX }));
const monitorIds = Type.Array(
  Type.String({
    pattern: '^mon_[0-9a-z]{26}$',
    'x-issues': { type: 'must be a monitor id', pattern: 'must be a monitor id' },
  }),
  {
    maxItems: LIST_MAX,
    description: 'Monitors of this organization (in the key’s environments) the window covers.',
    'x-issues': {
      type: `must be an array of at most ${LIST_MAX} monitor ids`,
      maxItems: `must be an array of at most ${LIST_MAX} monitor ids`,
    },
  },
);
const tags = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: 50,
  description: 'Monitors carrying any of these tags are covered, also ones created or tagged later.',
});
const statusPageIds = Type.Array(
  Type.String({
    pattern: '^stp_[0-9a-z]{26}$',
    'x-issues': { type: 'must be a status page id', pattern: 'must be a status page id' },
  }),
  { maxItems: 50, description: 'Status pages that announce the window.' },
);
const unknownField = { additionalProperties: 'is not a known field', type: 'must be a JSON object' };

/**
 * One object for both kinds (not a union: a union's errors cannot name the field that is wrong); which fields each
 * `type` needs and refuses is checked by the service, field by field.
 */
const schedule = Type.Object(
  {
    type: Type.Union([Type.Literal('once'), Type.Literal('recurring')], {
      'x-issues': { anyOf: 'must be "once" or "recurring"' },
    }),
    starts_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'once: the start.',
        'x-issues': { format: 'must be an RFC 3339 date-time' },
      }),
    ),
    ends_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'once: the end, after starts_at.',
        'x-issues': { format: 'must be an RFC 3339 date-time' },
      }),
    ),
    rrule: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          'recurring: an RFC 5545 RRULE, FREQ=DAILY|WEEKLY|MONTHLY with INTERVAL, BYDAY (MONTHLY also 1MO … -1FR), ' +
          'BYMONTHDAY, COUNT or UNTIL. Anything else is refused (422 on schedule.rrule).',
      }),
    ),
    start_time: Type.Optional(
      Type.String({
        description:
          'recurring: local start time HH:MM in `timezone`. A time in a DST gap moves forward by the gap; one that ' +
          'happens twice takes the first.',
      }),
    ),
    duration_minutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DURATION_MAX_MINUTES,
        description: 'recurring: how long each occurrence lasts (real minutes, also across a DST change).',
        'x-issues': {
          type: `must be an integer from 1 to ${DURATION_MAX_MINUTES}`,
          minimum: `must be an integer from 1 to ${DURATION_MAX_MINUTES}`,
          maximum: `must be an integer from 1 to ${DURATION_MAX_MINUTES}`,
        },
      }),
    ),
    start_date: Type.Optional(
      Type.String({
        description:
          'recurring: the first local date (YYYY-MM-DD) occurrences may fall on; INTERVAL and COUNT count from it. ' +
          'Default: the day the window is created, in `timezone`.',
      }),
    ),
  },
  {
    additionalProperties: false,
    'x-issues': unknownField,
    description:
      '`{"type":"once","starts_at","ends_at"}` or `{"type":"recurring","rrule","start_time","duration_minutes"` ' +
      '(+ optional `start_date`)`}`.',
  },
);
const timezone = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'IANA time zone of the local times (default UTC).',
});
const announce = Type.Integer({
  minimum: 0,
  maximum: 43_200,
  description: 'Minutes before an occurrence that status pages announce it (0: only while it is in progress).',
});

const fields = {
  name,
  description: Type.Optional(description),
  monitor_ids: Type.Optional(monitorIds),
  tags: Type.Optional(tags),
  schedule,
  timezone: Type.Optional(timezone),
  suppress_alerts: Type.Optional(
    Type.Boolean({ description: 'No incident, down, reminder or intelligence alert inside (default true).' }),
  ),
  exclude_from_sla: Type.Optional(
    Type.Boolean({ description: 'Reports count the time as maintenance, neither up nor down (default true).' }),
  ),
  status_page_ids: Type.Optional(statusPageIds),
  announce_minutes_before: Type.Optional(announce),
};

export const MaintenanceWindowCreateBody = Type.Object(fields, {
  'x-issues': unknownField,
  description: 'Unknown fields are rejected. Cover at least one monitor (monitor_ids or tags).',
});

export const MaintenanceWindowPatchBody = Type.Object(
  { ...fields, name: Type.Optional(name), schedule: Type.Optional(schedule) },
  { 'x-issues': unknownField, description: 'Fields to change; lists replace the stored ones.' },
);

export const MaintenancePreviewBody = Type.Object(
  { monitor_ids: Type.Optional(monitorIds), tags: Type.Optional(tags) },
  { 'x-issues': unknownField },
);

export const MaintenanceWindowRecord = Type.Object(
  {
    id: Type.String({ description: 'mnt_…' }),
    name: Type.String(),
    description: Nullable(Type.String()),
    monitor_ids: Type.Array(Type.String(), { description: 'Monitors the window covers by id.' }),
    tags: Type.Array(Type.String(), {
      description: 'Monitors carrying any of these tags are covered, also ones created or tagged later.',
    }),
    schedule: Type.Union([
      Type.Object({ type: Type.Literal('once'), starts_at: Timestamp(), ends_at: Timestamp() }),
      Type.Object({
        type: Type.Literal('recurring'),
        rrule: Type.String({ description: 'RFC 5545 RRULE (FREQ DAILY|WEEKLY|MONTHLY, INTERVAL, BYDAY, …).' }),
        start_time: Type.String({ description: 'HH:MM on the local clock of `timezone`.' }),
        duration_minutes: Type.Integer({ description: 'Real minutes each occurrence lasts.' }),
        start_date: Type.String({ description: 'YYYY-MM-DD (RFC 5545 DTSTART date) from which occurrences count.' }),
      }),
    ]),
    timezone: Type.String({ description: 'IANA zone of the local times.' }),
    suppress_alerts: Type.Boolean({ description: 'Outages inside are held: no incident, down or reminder.' }),
    exclude_from_sla: Type.Boolean({
      description:
        'Reports, SLA targets, status page bars and the monitor-health report count the time as maintenance ' +
        '(maintenance_seconds), neither up nor down.',
    }),
    status_page_ids: Type.Array(Type.String(), { description: 'Status pages that announce the window.' }),
    announce_minutes_before: Type.Integer({
      description: 'Status pages list the next occurrence this many minutes ahead; 0: only while in progress.',
    }),
    active: Type.Boolean({ description: 'An occurrence is in progress now.' }),
    next_start_at: NullableTimestamp('The occurrence in progress, else the next one (within about 400 days).'),
    next_end_at: NullableTimestamp('The end of the occurrence in next_start_at (an early end when ended early).'),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    ...MANAGED_FIELDS,
  },
  { $id: 'MaintenanceWindow', title: 'MaintenanceWindow' },
);

export const MaintenanceWindowList = ListOf(Type.Ref(MaintenanceWindowRecord), 'MaintenanceWindowList');
export const MaintenanceWindowListQuery = Type.Object({ ...PageQuery });

export const MaintenancePreview = Type.Object({
  monitors: Type.Array(
    Type.Object({ id: Type.String(), name: Type.String(), status: Type.String(), tags: Type.Array(Type.String()) }),
  ),
});

export const MonitorMaintenance = Type.Object({
  next: Nullable(
    Type.Object({
      maintenance_window_id: Type.String(),
      name: Type.String(),
      starts_at: Timestamp(),
      ends_at: Timestamp(),
      active: Type.Boolean(),
    }),
  ),
});
