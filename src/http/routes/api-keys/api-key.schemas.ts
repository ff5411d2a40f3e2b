import { Type } from '@sinclair/typebox';
import { Nullable, NullableTimestamp, PageQuery, Timestamp } from '../../schemas/common.schemas.ts';

const Budget = (description: string) => Type.Integer({ minimum: 1, maximum: 100_000, description });

export const RateLimitsSchema = Type.Object({
  read_per_minute: Budget('GET/HEAD requests per minute (default 600).'),
  write_per_minute: Budget('POST/PUT/PATCH requests per minute (default 120).'),
  delete_per_minute: Budget('DELETE requests per minute (default 60).'),
});

export const ApiKeyRecord = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the value, to recognise it; never enough to use it.' }),
    scopes: Type.Array(Type.String()),
    environments: Type.Array(Type.String()),
    expires_at: NullableTimestamp(),
    rate_limits: RateLimitsSchema,
    created_by: Nullable(Type.String()),
    service_account_id: Nullable(Type.String()),
    last_used_at: NullableTimestamp('Updated every few seconds, not on every request.'),
    revoked_at: NullableTimestamp(),
    created_at: Timestamp(),
  },
  { $id: 'ApiKey', title: 'ApiKey' },
);

export const ApiKeyWithValue = Type.Object(
  {
    ...ApiKeyRecord.properties,
    key: Type.String({
      description: 'The key value. Shown once: no later response contains it (an idempotent replay neither).',
    }),
  },
  { $id: 'ApiKeyWithValue', title: 'ApiKeyWithValue' },
);

export const ApiKeyList = Type.Object(
  { data: Type.Array(Type.Ref(ApiKeyRecord)), next_cursor: Nullable(Type.String()) },
  { $id: 'ApiKeyList', title: 'ApiKeyList' },
);

export const ApiKeyCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 50 }),
  environments: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 32 }), {
      minItems: 1,
      maxItems: 20,
      description: 'Default ["production"].',
    }),
  ),
  expires_at: Type.Optional(NullableTimestamp('RFC 3339; null (default) for no expiry.')),
  rate_limits: Type.Optional(Type.Partial(RateLimitsSchema)),
  service_account_id: Type.Optional(
    Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'Owner of the key instead of the caller.' })),
  ),
});

export const RotateBody = Type.Object({
  grace_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_592_000,
      description: 'How long the old value keeps working (default 86400; 0 ends it now).',
    }),
  ),
});

export const ListQuery = Type.Object(PageQuery);

export const USAGE_PERIODS = ['last_hour', 'last_24_hours', 'last_7_days', 'last_30_days'] as const;

export const UsageQuery = Type.Object({
  from: Type.Optional(Timestamp('Start (inclusive); with `to`, instead of `period`.')),
  to: Type.Optional(Timestamp('End (exclusive); default now.')),
  period: Type.Optional(
    Type.Union(
      USAGE_PERIODS.map((p) => Type.Literal(p)),
      { description: 'Default last_24_hours.' },
    ),
  ),
  resolution: Type.Optional(Type.Union([Type.Literal('minute'), Type.Literal('hour'), Type.Literal('day')])),
});

const Counts = {
  read: Type.Integer(),
  write: Type.Integer(),
  delete: Type.Integer(),
  status_2xx: Type.Integer(),
  status_3xx: Type.Integer(),
  status_4xx: Type.Integer(),
  status_5xx: Type.Integer(),
};

export const UsageResponse = Type.Object(
  {
    key_id: Type.String(),
    period: Type.Object({ from: Timestamp(), to: Timestamp() }),
    resolution: Type.String(),
    last_used_at: NullableTimestamp(),
    totals: Type.Object({ requests: Type.Integer(), ...Counts }),
    data: Type.Array(Type.Object({ start: Timestamp(), ...Counts })),
  },
  { $id: 'ApiKeyUsage', title: 'ApiKeyUsage' },
);
