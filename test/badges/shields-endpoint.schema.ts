/**
 * shields.io's endpoint badge schema, written from its documentation (https://shields.io/badges/endpoint-badge,
 * "Schema"): `schemaVersion` always the number 1, `label` required (may be empty), `message` required and not
 * empty, the optional keys listed there; shields refuses any other key.
 */
export const SHIELDS_ENDPOINT_SCHEMA = {
  type: 'object',
  required: ['schemaVersion', 'label', 'message'],
  additionalProperties: false,
  properties: {
    schemaVersion: { const: 1 },
    label: { type: 'string' },
    message: { type: 'string', minLength: 1 },
    color: { type: 'string' },
    labelColor: { type: 'string' },
    isError: { type: 'boolean' },
    namedLogo: { type: 'string' },
    logoSvg: { type: 'string' },
    logoColor: { type: 'string' },
    logoWidth: { type: 'number' },
    style: { type: 'string' },
    cacheSeconds: { type: 'integer', minimum: 0 },
  },
} as const;
