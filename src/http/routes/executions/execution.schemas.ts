import { Type } from '@sinclair/typebox';
import { ListOf, Nullable, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const ms = (description?: string) => Nullable(Type.Integer(description ? { description } : {}));

export const ExecutionTimings = Type.Object(
  {
    dns_ms: ms(),
    connect_ms: ms(),
    tls_ms: ms(),
    ttfb_ms: ms('Time to first byte.'),
    download_ms: ms(),
    total_ms: Type.Integer(),
  },
  {
    $id: 'ExecutionTimings',
    title: 'ExecutionTimings',
    description: 'Phase timings in whole milliseconds; null when the phase did not happen.',
  },
);

export const ExecutionRecordSchema = Type.Object(
  {
    id: Type.String({ description: 'exe_…' }),
    monitor_id: Type.String(),
    region_code: Type.String(),
    started_at: Timestamp(),
    status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    in_maintenance: Type.Boolean({
      description:
        'A maintenance window covered the monitor when the check started (DECISIONS §16): stored like any other; ' +
        'what happened inside alerted nobody. Read from the windows as they are now.',
    }),
    duration_ms: Type.Integer(),
    timings: Type.Ref(ExecutionTimings),
    http_status: Nullable(Type.Integer()),
    assertions: Type.Array(
      Type.Object(
        { type: Type.String(), passed: Type.Boolean(), actual: Type.Unknown() },
        { additionalProperties: true },
      ),
      { description: 'Each assertion of the monitor as evaluated: its definition plus passed and actual.' },
    ),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    details: Nullable(
      Type.Object(
        {
          grpc_status: Type.Optional(Type.String({ description: 'gRPC method monitors: the status name, e.g. OK.' })),
          method: Type.Optional(Type.String({ description: 'gRPC method monitors: package.Service/Method called.' })),
          rtt_min_ms: Type.Optional(Type.Number({ description: 'icmp monitors: fastest round trip (ms).' })),
          rtt_max_ms: Type.Optional(Type.Number({ description: 'icmp monitors: slowest round trip (ms).' })),
          loss_percent: Type.Optional(Type.Number({ description: 'icmp monitors: echo requests lost (percent).' })),
          auth_ms: Type.Optional(
            Type.Integer({ description: 'postgres, mysql, redis: the login (after connect and TLS), whole ms.' }),
          ),
          query_ms: Type.Optional(
            Type.Integer({ description: 'postgres, mysql, redis: the query or command, whole ms.' }),
          ),
        },
        { description: 'Facts of the check kept with it (docs/monitors.md); null when there are none.' },
      ),
    ),
  },
  { $id: 'Execution', title: 'Execution' },
);

export const ExecutionList = ListOf(Type.Ref(ExecutionRecordSchema), 'ExecutionList');

export const ExecutionListQuery = Type.Object({
  ...PageQuery,
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Executions started at or after.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Executions started before.' })),
  region_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  status: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('down')])),
});

export const EXECUTION_SCHEMAS = [ExecutionTimings, ExecutionRecordSchema, ExecutionList];
