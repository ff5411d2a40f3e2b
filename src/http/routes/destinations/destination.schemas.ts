import { MANAGED_FIELDS } from '../../schemas/managed.schemas.ts';
import { Type, type Static } from '@sinclair/typebox';
import { DESTINATION_TYPES, destinationConfigSchemas } from '../../../modules/alerting/index.ts';
import { EVENT_TYPES } from '../../../modules/events/index.ts';
import { ListOf, NullableTimestamp, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** Per-type `config` (DECISIONS §7): each provider's own schema. Secret fields are write-only: reads show them masked. */
export const DESTINATION_CONFIGS = destinationConfigSchemas();

const groupWindowSeconds = Type.Integer({
  minimum: 0,
  maximum: 900,
  description:
    'DECISIONS §17: down, recovered and still_down events reaching this destination within this many seconds of ' +
    'the first go as one message; 0 (default) = off. Not for pager and incident-tool types (one alert per monitor).',
});

const commonCreateFields = {
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Default: the type.' })),
  events: Type.Optional(Type.Array(lit(EVENT_TYPES), { description: 'Default ["down","recovered"].' })),
  payload_format: Type.Optional(
    Type.Union([lit(['standard', 'legacy'] as const), Type.Null()], {
      description: 'generic_webhook only: "standard" (default) or "legacy".',
    }),
  ),
  monitor_ids: Type.Optional(
    Type.Array(Type.String({ maxLength: 64 }), {
      description:
        "Monitors that alert this destination (shown as their config.alert_destination_ids); only monitors of the key's environments.",
    }),
  ),
  group_window_seconds: Type.Optional(groupWindowSeconds),
};

const createBranches = DESTINATION_TYPES.map((type) =>
  Type.Object({ type: Type.Literal(type), config: DESTINATION_CONFIGS[type], ...commonCreateFields }, { title: type }),
);

type CreateBranch = (typeof createBranches)[number];

/**
 * One branch per type, chosen by `type` (the validator reports only the chosen branch's problems). Checks a schema
 * cannot say (URL rules, known monitors and installations) run after, in the service.
 */
export const DestinationCreateBody = Type.Unsafe<Static<CreateBranch>>({
  type: 'object',
  oneOf: createBranches,
  discriminator: { propertyName: 'type' },
  required: ['type', 'config'],
  description: 'Unknown fields are rejected; config is per type.',
});

export const DestinationPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    events: Type.Optional(Type.Array(lit(EVENT_TYPES))),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          "Merged key by key into the destination's config (its type's fields, see the create body); an omitted " +
          'secret keeps its value; null removes a key. The merged config is checked against the type.',
      }),
    ),
    payload_format: Type.Optional(Type.Union([lit(['standard', 'legacy'] as const), Type.Null()])),
    group_window_seconds: Type.Optional(groupWindowSeconds),
    monitor_ids: Type.Optional(
      Type.Array(Type.String({ maxLength: 64 }), {
        description: "Replaces the links to monitors of the key's environments; other environments' links stay.",
      }),
    ),
  },
  { description: 'Fields to change; type cannot change.' },
);

export const DestinationRecordSchema = Type.Object(
  {
    id: Type.String(),
    type: lit(DESTINATION_TYPES),
    name: Type.String(),
    events: Type.Array(Type.String()),
    config: Type.Object({}, { additionalProperties: true }),
    payload_format: Type.Union([lit(['standard', 'legacy'] as const), Type.Null()]),
    group_window_seconds: Type.Integer({ description: 'Grouping window (DECISIONS §17); 0 = off.' }),
    monitor_ids: Type.Array(Type.String()),
    last_success_at: NullableTimestamp(),
    last_failure_at: NullableTimestamp(),
    last_failure_reason: Type.Union([Type.String(), Type.Null()]),
    needs_reauthorization: Type.Boolean(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    signing_secret: Type.Optional(Type.String({ description: 'generic_webhook: only in the create response.' })),
    ...MANAGED_FIELDS,
  },
  { $id: 'Destination', title: 'Destination' },
);

export const DestinationList = ListOf(Type.Ref(DestinationRecordSchema), 'DestinationList');

export const DestinationTestResult = Type.Object(
  {
    delivery_id: Type.Union([Type.String(), Type.Null()]),
    outcome: Type.Union(
      (['delivered', 'logged', 'failed', 'retrying', 'queued'] as const).map((v) => Type.Literal(v)),
      {
        description:
          '`logged`: not sent — an email while no SMTP server is configured; it was written to the server log ' +
          '(`note`).',
      },
    ),
    attempts: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()], {
      description: 'What happened instead of a delivery (outcome `logged`); null otherwise.',
    }),
    destination: Type.Ref(DestinationRecordSchema),
  },
  { $id: 'DestinationTestResult', title: 'DestinationTestResult' },
);

export const SlackInstallQuery = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  destination_id: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Re-authorise this destination.' }),
  ),
});

export const SlackInstallResponse = Type.Object({ install_url: Type.String(), expires_at: Timestamp() });

export const SlackCallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 1000 })),
  state: Type.Optional(Type.String({ maxLength: 200 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
});
