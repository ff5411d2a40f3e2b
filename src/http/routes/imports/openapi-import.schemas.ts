import { Type } from '@sinclair/typebox';
import { Nullable } from '../../schemas/common.schemas.ts';
import { MONITOR_FIELD_SCHEMAS } from '../monitors/monitor.schemas.ts';

const noControl = { pattern: '^[^\\u0000-\\u001f\\u007f]*$', 'x-issue': 'must not contain control characters' };

const Spec = Type.Union(
  [
    // No minLength: checking it counts the characters of megabytes of text on the main thread; an empty (or blank)
    // text is refused by the parse thread, as 422 on spec too.
    Type.String({ description: 'JSON or YAML text of the description (at most 10 MiB).' }),
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'The description as a JSON object, read like its JSON text (at most 10 MiB, no duplicate keys) on the ' +
          'parse thread.',
      },
    ),
  ],
  { description: 'A Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 description.' },
);

const BaseUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  pattern: '^[hH][tT][tT][pP][sS]?://[^\\s]+$',
  'x-issues': { pattern: 'must be an absolute http:// or https:// URL' },
  description: "Replaces the description's servers (or Swagger host/basePath/schemes).",
});

export const OpenApiParseBody = Type.Object(
  { spec: Spec, base_url: Type.Optional(BaseUrl) },
  { additionalProperties: false },
);

const OperationMonitor = Type.Object(
  {
    name: Type.String(),
    type: Type.Literal('http'),
    target: Type.String(),
    config: Type.Object({
      method: Type.String(),
      headers: Type.Record(Type.String(), Type.String()),
      body: Nullable(Type.String()),
      follow_redirects: Type.Boolean(),
      assertions: Type.Array(Type.Object({}, { additionalProperties: true })),
    }),
  },
  { description: 'A ready POST /monitors body (an http monitor).' },
);

export const ParsedOperationRecord = Type.Object(
  {
    operation_id: Type.String({ description: 'The operationId, or "<method> <path>" when the description has none.' }),
    method: Type.String(),
    path: Type.String(),
    summary: Nullable(Type.String()),
    monitor: OperationMonitor,
    create: Type.Boolean({
      description: 'Selected for creation by default: a GET or HEAD whose URL, credentials and body are all known.',
    }),
    warnings: Type.Array(Type.String(), { description: 'What had to be guessed or could not be built.' }),
  },
  { $id: 'ParsedOperation', title: 'ParsedOperation' },
);

export const OpenApiParseResult = Type.Object(
  { operations: Type.Array(Type.Ref(ParsedOperationRecord)) },
  { $id: 'OpenApiParseResult', title: 'OpenApiParseResult' },
);

const fields = MONITOR_FIELD_SCHEMAS;

export const OpenApiImportBody = Type.Object(
  {
    spec: Type.Optional(Spec),
    base_url: Type.Optional(BaseUrl),
    operations: Type.Optional(
      Type.Array(
        Type.Object(
          {
            operation_id: Type.String({ minLength: 1, maxLength: 1000, ...noControl }),
            monitor: Type.Object({}, { additionalProperties: true, description: 'A POST /monitors body.' }),
          },
          { additionalProperties: true },
        ),
        { maxItems: 20_000, description: "A previous parse's operations (possibly edited), instead of `spec`." },
      ),
    ),
    operation_ids: Type.Array(Type.String({ minLength: 1, maxLength: 1000, ...noControl }), {
      minItems: 1,
      maxItems: 1000,
      description: 'The operations to create monitors for, in this order.',
    }),
    defaults: Type.Optional(
      Type.Object(
        {
          interval_seconds: Type.Optional(fields.interval_seconds),
          region_codes: Type.Optional(fields.region_codes),
          tags: Type.Optional(fields.tags),
          environment: Type.Optional(fields.environment),
          paused: Type.Optional(fields.paused),
          destination_ids: Type.Optional(
            Type.Array(
              Type.String({
                pattern: '^dst_[0-9a-z]{26}$',
                'x-issues': { pattern: 'must be a destination id (dst_…)' },
              }),
              { maxItems: 100, uniqueItems: true },
            ),
          ),
        },
        { additionalProperties: false, description: 'Applied to every monitor created (tags are added).' },
      ),
    ),
  },
  { additionalProperties: false },
);
