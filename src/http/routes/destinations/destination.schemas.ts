import { Type } from '@sinclair/typebox';
import { DESTINATION_TYPES } from '../../../modules/alerting/index.ts';
import { EVENT_TYPES } from '../../../modules/events/index.ts';
import { ListOf, NullableTimestamp, Timestamp } from '../../schemas/common.schemas.ts';

const lit = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const CONFIG_DOC =
  'Per type: chatapp1_webhook|chatapp2_webhook|chatapp3_webhook|generic_webhook {url}; chatapp1_channel {installation_id, channel_id} ' +
  '(created by the Slack install flow; PATCH channel_id); chatapp4_bot {bot_token, chat_id}; oncall_pager1 {integration_key}; ' +
  'oncall_pager2 {api_key, region: "us"|"eu"}; incident_tool1 {api_key, severity_id}; incident_tool2 {api_key}; email {address}. ' +
  'Secret fields are write-only and read back masked.';

export const DestinationCreateBody = Type.Object(
  {
    type: lit(DESTINATION_TYPES),
    name: Type.Optional(Type.String({ description: 'Default: the type.' })),
    events: Type.Optional(Type.Array(lit(EVENT_TYPES), { description: 'Default ["down","recovered"].' })),
    config: Type.Optional(Type.Object({}, { additionalProperties: true, description: CONFIG_DOC })),
    payload_format: Type.Optional(lit(['standard', 'legacy'] as const)),
    monitor_ids: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Monitors that alert this destination (sets their alert_destination_ids).',
      }),
    ),
  },
  {
    'x-domain-validated': true,
    description: 'Unknown fields are rejected; config is validated per type (422 with details).',
  },
);

export const DestinationPatchBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    events: Type.Optional(Type.Array(lit(EVENT_TYPES))),
    config: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'Merged key by key; an omitted secret keeps its value; null removes a key.',
        },
      ),
    ),
    payload_format: Type.Optional(lit(['standard', 'legacy'] as const)),
    monitor_ids: Type.Optional(Type.Array(Type.String())),
  },
  { 'x-domain-validated': true, description: 'Fields to change; type cannot change.' },
);

export const DestinationRecordSchema = Type.Object(
  {
    id: Type.String(),
    type: lit(DESTINATION_TYPES),
    name: Type.String(),
    events: Type.Array(Type.String()),
    config: Type.Object({}, { additionalProperties: true }),
    payload_format: Type.Union([lit(['standard', 'legacy'] as const), Type.Null()]),
    monitor_ids: Type.Array(Type.String()),
    last_success_at: NullableTimestamp(),
    last_failure_at: NullableTimestamp(),
    last_failure_reason: Type.Union([Type.String(), Type.Null()]),
    needs_reauthorization: Type.Boolean(),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    signing_secret: Type.Optional(Type.String({ description: 'generic_webhook: only in the create response.' })),
  },
  { $id: 'Destination', title: 'Destination' },
);

export const DestinationList = ListOf(Type.Ref(DestinationRecordSchema), 'DestinationList');

export const DestinationTestResult = Type.Object(
  {
    delivery_id: Type.Union([Type.String(), Type.Null()]),
    outcome: lit(['delivered', 'failed', 'retrying', 'queued'] as const),
    attempts: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
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
