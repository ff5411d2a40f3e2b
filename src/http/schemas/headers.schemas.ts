/**
 * The headers every client deals with, as reusable OpenAPI components (DECISIONS §1 and §2). Which operation
 * carries which is decided in `plugins/openapi.document.ts`; what each header means is said here, once.
 */

const integer = { type: 'integer', minimum: 0 } as const;

export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      'The id of this request, in every response (errors repeat it as `error.request_id`). A client-sent ' +
      '`X-Request-Id` of 1..128 characters from `A-Za-z0-9._:-` is echoed; otherwise one is generated (`req_…`).',
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128, examples: ['req_01JD6X8Q7ZKX4W2N3V5B6C7D8E'] },
  },
  'RateLimit-Limit': {
    description:
      "The key's budget for this method's class (read: GET; write: POST, PUT, PATCH; delete: DELETE), requests " +
      'per minute. Sent once the key is accepted and its plan allows the API (so not with a 401 or a 403 ' +
      '`plan_upgrade_required`), and not when the rate-limit store does not answer.',
    schema: { ...integer, examples: [600] },
  },
  'RateLimit-Remaining': {
    description: 'Requests left in the budget of this class now. Sent with RateLimit-Limit.',
    schema: { ...integer, examples: [599] },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the budget of this class is full again. Sent with RateLimit-Limit.',
    schema: { ...integer, examples: [1] },
  },
  'Retry-After': {
    description: 'Seconds to wait before the next request of this class is allowed (at least 1).',
    required: true,
    schema: { type: 'integer', minimum: 1, examples: [2] },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this response is the stored response of an earlier request with the same Idempotency-Key, ' +
      'method, path and body (nothing was done again). Absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    "Makes a retry safe: the first response (status < 500) is stored for 24 hours per key of the caller's " +
    'organization, and a repeat with the same method, path and body returns it with `Idempotent-Replayed: true` ' +
    'without doing anything again. A repeat while the first still runs is 409 `idempotency_in_progress`; the same ' +
    'key with another method, path or body is 422 `idempotency_key_mismatch`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]{1,255}$' },
  example: '3f1c9a7e-0b1d-4c55-9a57-6c0f0d4b8e21',
} as const;

/** `#/components/headers/<name>` */
export function headerRef(name: ResponseHeaderName): { $ref: string } {
  return { $ref: `#/components/headers/${name}` };
}

export const IDEMPOTENCY_KEY_REF = { $ref: '#/components/parameters/IdempotencyKey' } as const;
