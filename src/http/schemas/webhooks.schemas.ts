/**
 * What Tocsin sends to a `generic_webhook` destination, for the OpenAPI document's top-level `webhooks` section
 * (DECISIONS §7). The shapes follow `webhookPayload` in the generic_webhook provider; test/http/openapi.test.ts
 * validates payloads the provider really renders against the published schemas.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../modules/events/index.ts';

/** Every event a destination can receive: the outbox's event types plus `test` (POST …/webhooks/{id}/test). */
export const WEBHOOK_EVENTS = [...EVENT_TYPES, 'test'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The legacy payload format renames these two; every other event keeps its name. */
const LEGACY_NAMES: Partial<Record<WebhookEvent, string>> = { down: 'monitor_down', recovered: 'monitor_recovered' };
export const legacyEventName = (event: WebhookEvent): string => LEGACY_NAMES[event] ?? event;

const WHAT_HAPPENED: Record<WebhookEvent, string> = {
  down: 'A monitor reached its failure threshold and its incident opened.',
  recovered:
    'A down monitor passed its success threshold again; its incident resolved (`incident.id` is the one that opened with `down`).',
  still_down: 'A reminder that a monitor is still down (its incident is open).',
  incident_opened: 'An incident opened, whatever its source (monitor, api, intelligence, manual).',
  incident_acknowledged: 'Someone acknowledged an incident.',
  incident_resolved: 'An incident was resolved (automatically or by someone).',
  cert_expiring: 'A monitored TLS certificate expires soon (at most once a day per monitor); `data.days_to_expiry`.',
  security_grade_downgraded: "A monitor's security grade dropped; `data.previous_grade`, `data.grade`.",
  security_grade_recovered: "A monitor's security grade recovered; `data.previous_grade`, `data.grade`.",
  significant_change: 'A recorded change (DNS, TLS, headers, content …); `data.category`, `data.summary`.',
  performance_anomaly: 'Latency crossed its threshold; `data.latency_ms`, `data.threshold_ms`.',
  performance_recovered: 'Latency is back within its threshold; `data.latency_ms`, `data.threshold_ms`.',
  anomaly_alert: 'A baseline anomaly opened; `data.summary`.',
  anomaly_recovered: 'A baseline anomaly closed.',
  anomaly_flapping: 'A baseline anomaly is flapping.',
  scheduled_report:
    'A scheduled report ran. `data`: `scheduled_report_id`, `report_type`, `period {from, to, timezone}`, `summary` ' +
    '(the report’s headline figures), `files {json, csv, pdf}` each `{id, url, filename, content_type, size_bytes, ' +
    'expires_at}` (the url works without an API key for 7 days). `monitor` and `incident` are null.',
  maintenance_started:
    'An occurrence of a maintenance window began (DECISIONS §16). `data`: `maintenance_window_id`, `name`, ' +
    '`description`, `starts_at`, `ends_at`, `timezone`, `monitor_ids`, `tags`. `monitor` and `incident` are null.',
  maintenance_ended:
    'An occurrence of a maintenance window ended (on time or ended early; `data.ends_at` is when). Same `data` as ' +
    '`maintenance_started`.',
  degraded:
    'A monitor became degraded (DECISIONS §20; not an outage, no incident): checks slower than ' +
    '`config.degraded_latency_ms`, or failing in fewer regions than `confirm_regions`. `data`: `latency_ms` (the ' +
    'check that decided), `threshold_ms` (the configured latency, or null), `execution_id`; the message has the cause.',
  degraded_recovered:
    'A degraded monitor is up again (success_threshold fast checks in every region). `data`: `duration_seconds` (how ' +
    'long it was degraded), `execution_id`. Sent only when its `degraded` was.',
  test: 'Sent by POST /api/v1/auth/organization/webhooks/{id}/test. `monitor` and `incident` are null.',
};

const common = {
  id: Type.String({ pattern: '^evt_', description: 'The event id (`evt_…`); the same event always has the same id.' }),
  product: Type.Literal('Tocsin'),
  timestamp: Type.String({ format: 'date-time', description: 'When the event happened (not when it was sent).' }),
  message: Type.String({ description: 'A human-readable title and text, separated by a newline.' }),
  monitor: Type.Union(
    [
      Type.Object({ id: Type.String(), name: Type.String(), target: Type.String() }, { additionalProperties: false }),
      Type.Null(),
    ],
    { description: 'The monitor concerned; null for events without one (test, scheduled_report).' },
  ),
  incident: Type.Union(
    [
      Type.Object(
        {
          id: Type.String(),
          number: Type.Integer({ minimum: 0, description: 'Sequential per organization.' }),
          url: Type.String({ format: 'uri' }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description: 'The incident concerned, or null.' },
  ),
  data: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Event-specific facts (see the event); `{}` when there are none.',
  }),
};

const Named = Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false });

/** `payload_format: "standard"` (the default). */
export const WebhookPayload = Type.Object(
  {
    id: common.id,
    event: Type.Union(
      WEBHOOK_EVENTS.map((e) => Type.Literal(e)),
      { description: 'The event type; also sent as X-Service-Event.' },
    ),
    product: common.product,
    timestamp: common.timestamp,
    organization: Named,
    destination: Named,
    message: common.message,
    monitor: common.monitor,
    incident: common.incident,
    data: common.data,
  },
  { $id: 'WebhookPayload', title: 'WebhookPayload', additionalProperties: false },
);

/** `payload_format: "legacy"`: organization and destination by name, `monitor_down` / `monitor_recovered`. */
export const WebhookPayloadLegacy = Type.Object(
  {
    id: common.id,
    event: Type.Union(
      [...new Set(WEBHOOK_EVENTS.map(legacyEventName))].map((e) => Type.Literal(e)),
      { description: 'The event type (legacy names); also sent as X-Service-Event.' },
    ),
    product: common.product,
    timestamp: common.timestamp,
    organization: Type.String({ description: 'The organization name.' }),
    destination: Type.String({ description: 'The destination name.' }),
    message: common.message,
    monitor: common.monitor,
    incident: common.incident,
    data: common.data,
  },
  { $id: 'WebhookPayloadLegacy', title: 'WebhookPayloadLegacy', additionalProperties: false },
);

const headerParam = (name: string, description: string, schema: TSchema, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
  example,
});

/** The request headers of every generic webhook delivery. */
export const WEBHOOK_HEADERS = [
  headerParam(
    'X-Service-Signature',
    '`sha256=` + lowercase hex of HMAC-SHA256 over the raw request body, keyed with the UTF-8 bytes of the whole ' +
      'signing secret as shown at creation (including its `whsec_` prefix). Compare in constant time.',
    Type.String({ pattern: '^sha256=[0-9a-f]{64}$' }),
    'sha256=5d0b6a3f0e1c2b4a69788796a5b4c3d2e1f00112233445566778899aabbccdde',
  ),
  headerParam(
    'webhook-id',
    'Standard Webhooks message id: the delivery id (`dlv_…`), the same on every retry of one delivery; use it ' +
      'to drop duplicates.',
    Type.String({ pattern: '^dlv_' }),
    'dlv_01JD6XA0S4H5J6K7L8M9N0P1Q2',
  ),
  headerParam(
    'webhook-timestamp',
    'Standard Webhooks timestamp: Unix seconds of this attempt. Reject values far from your clock (replays).',
    Type.String({ pattern: '^[0-9]+$' }),
    '1764000000',
  ),
  headerParam(
    'webhook-signature',
    'Standard Webhooks signature: `v1,` + base64 of HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, ' +
      'keyed with the base64-decoded part of the signing secret after `whsec_` (what the standard-webhooks ' +
      'libraries do). Space-separated when there are several.',
    Type.String({ pattern: '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$' }),
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
  headerParam('X-Service-Event', 'The event type, as in the body’s `event`.', Type.String(), 'down'),
  headerParam(
    'X-Service-Delivery',
    'The delivery id (`dlv_…`); equal to webhook-id.',
    Type.String({ pattern: '^dlv_' }),
    'dlv_01JD6XA0S4H5J6K7L8M9N0P1Q2',
  ),
  headerParam('User-Agent', '`Tocsin/<version>`.', Type.String({ pattern: '^Tocsin/' }), 'Tocsin/0.1.0'),
];

const RECEIVER_RESPONSES = {
  '2XX': { description: 'Accepted: the delivery is done.' },
  '408': { description: 'Retried with backoff (about 1 m, 5 m, 30 m, 2 h, 6 h, then failed).' },
  '410': { description: 'Gone: the destination is marked broken and not retried.' },
  '429': { description: 'Retried, after Retry-After (seconds or an HTTP date) when sent.' },
  '5XX': { description: 'Retried with backoff, after Retry-After when sent.' },
  default: {
    description:
      'Any other status (3xx redirects included) fails the delivery at once; network errors and timeouts are retried.',
  },
};

/** The document's `webhooks`: one entry per event type, each with both payload formats. */
export function webhooksSection(): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const event of WEBHOOK_EVENTS) {
    const legacy = legacyEventName(event);
    section[event] = {
      post: {
        summary: `${event}${legacy !== event ? ` (legacy format: ${legacy})` : ''}`,
        description:
          `${WHAT_HAPPENED[event]}\n\nPOSTed as JSON to the \`url\` of each \`generic_webhook\` destination whose ` +
          '`events` include it (`payload_format` chooses the body: standard or legacy). Delivery is at least ' +
          'once: deduplicate on `webhook-id`. Verify both signatures before trusting the body (docs/webhooks.md).',
        operationId: `webhook_${event}`,
        // The receiver asks for no credentials: it verifies the signature headers instead.
        security: [],
        tags: ['webhooks'],
        parameters: WEBHOOK_HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  {
                    allOf: [
                      { $ref: '#/components/schemas/WebhookPayload' },
                      { type: 'object', properties: { event: { const: event } } },
                    ],
                  },
                  {
                    allOf: [
                      { $ref: '#/components/schemas/WebhookPayloadLegacy' },
                      { type: 'object', properties: { event: { const: legacy } } },
                    ],
                  },
                ],
              },
            },
          },
        },
        responses: RECEIVER_RESPONSES,
      },
    };
  }
  return section;
}
