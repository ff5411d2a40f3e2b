import type { SecretBox } from '../../platform/secrets.ts';

/**
 * Top-level response fields that hold a secret shown once and replayed from a stored response: sealed with
 * the master key before the response is stored, opened again on replay (a generic webhook's signing secret).
 */
export const SEALED_RESPONSE_FIELDS: readonly string[] = ['signing_secret'];

/** Binds a sealed value to its idempotency record and field, so it cannot be moved to another. */
function associatedData(recordId: string, field: string): string {
  return `idempotency_key:${recordId}:${field}`;
}

function asObject(body: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null; // not JSON: nothing to seal
  }
}

/**
 * The body as stored: fields in `redacted` removed (never replayed), string fields in `sealed` replaced by
 * their sealed form. A body that is not a JSON object is stored as is.
 */
export function bodyToStore(
  box: SecretBox,
  recordId: string,
  body: string,
  fields: { redacted: readonly string[]; sealed: readonly string[] },
): string {
  const present = [...fields.redacted, ...fields.sealed].some((f) => body.includes(`"${f}"`));
  const parsed = present ? asObject(body) : null;
  if (!parsed) return body;
  for (const f of fields.redacted) delete parsed[f];
  for (const f of fields.sealed) {
    const value = parsed[f];
    if (typeof value === 'string') parsed[f] = box.seal(value, associatedData(recordId, f));
  }
  return JSON.stringify(parsed);
}

/** The body to replay: sealed fields opened; one that no longer opens (another master key) is left out. */
export function bodyToReplay(box: SecretBox, recordId: string, stored: string, sealed: readonly string[]): string {
  const present = sealed.some((f) => stored.includes(`"${f}"`));
  const parsed = present ? asObject(stored) : null;
  if (!parsed) return stored;
  for (const f of sealed) {
    const value = parsed[f];
    if (typeof value !== 'string') continue;
    try {
      parsed[f] = box.open(value, associatedData(recordId, f));
    } catch {
      delete parsed[f];
    }
  }
  return JSON.stringify(parsed);
}
