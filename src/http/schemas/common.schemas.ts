import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Stable machine-readable code, e.g. validation_failed.' }),
      message: Type.String({ description: 'Human-readable explanation.' }),
      request_id: Type.String({ description: 'The X-Request-Id of the request, for the logs.' }),
      details: Type.Optional(
        Type.Array(Type.Object({ field: Type.String(), issue: Type.String() }), {
          description: 'Field-level problems, one per invalid field.',
        }),
      ),
    }),
  },
  { $id: 'ErrorEnvelope', title: 'ErrorEnvelope' },
);

export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', ...(description && { description }) });
export const NullableTimestamp = (description?: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], description ? { description } : {});
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `?limit=&cursor=` of every list (DECISIONS §1). */
/** The range of a count or history over UTC hours or days (`platform/time-buckets.ts` checks its bounds). */
export const HourOrDayWindow = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Default: 24 hours before to.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Default: now.' })),
  resolution: Type.Optional(
    Type.Union([Type.Literal('hour'), Type.Literal('day')], {
      default: 'hour',
      description: 'UTC hours (at most 93 days) or UTC days (at most 1,100 days).',
    }),
  ),
};

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1..200.' })),
  cursor: Type.Optional(
    Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor of the previous page.' }),
  ),
};

export const ListOf = <T extends TSchema>(item: T, id: string) =>
  Type.Object(
    { data: Type.Array(item), next_cursor: Type.Union([Type.String(), Type.Null()]) },
    { $id: id, title: id },
  );

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
