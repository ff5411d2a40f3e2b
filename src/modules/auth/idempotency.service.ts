import { createHash } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { DomainError } from '../../platform/errors.ts';
import { randomToken } from '../../platform/ids.ts';
import type { SecretBox } from '../../platform/secrets.ts';
import type { IdempotencyRepository } from './idempotency.repository.ts';
import { bodyToReplay, bodyToStore, SEALED_RESPONSE_FIELDS } from './idempotency.sealing.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** Response fields a route keeps out of its stored response (a key value shown once is never replayed). */
export interface StoredFields {
  redacted?: readonly string[];
}

export type IdempotencyStart = { kind: 'started'; id: string } | { kind: 'replay'; response: StoredResponse };

/** JSON with object keys sorted, so the same body hashes the same whatever the key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function bodyHash(body: unknown): string {
  return createHash('sha256')
    .update(canonical(body ?? null))
    .digest('hex');
}

export function isValidIdempotencyKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

/**
 * Idempotency-Key (DECISIONS §2): the first request inserts an in-progress row (the unique index on
 * the calling API key and the Idempotency-Key decides races in every process); its response is stored when it is sent;
 * a repeat replays it, a repeat while it runs is refused, a different request with the key is refused.
 */
export class IdempotencyService {
  private readonly repository: IdempotencyRepository;
  private readonly clock: Clock;
  /** Seals the secrets a stored response holds (SEALED_RESPONSE_FIELDS): no secret is stored in plain text. */
  private readonly box: SecretBox;
  constructor(deps: { repository: IdempotencyRepository; clock: Clock; box: SecretBox }) {
    this.repository = deps.repository;
    this.clock = deps.clock;
    this.box = deps.box;
  }

  async begin(input: {
    organizationId: string;
    /** The calling key: records are scoped to it (another key with the same Idempotency-Key is a new request). */
    apiKeyId: string;
    key: string;
    method: string;
    path: string;
    body: unknown;
  }): Promise<IdempotencyStart> {
    if (!isValidIdempotencyKey(input.key)) {
      throw new DomainError('validation_failed', 'The Idempotency-Key header is not valid.', [
        { field: 'Idempotency-Key', issue: 'must be 1 to 255 printable ASCII characters' },
      ]);
    }
    const hash = bodyHash(input.body);
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      const id = randomToken(16);
      const inserted = await this.repository.tryInsert({
        id,
        organization_id: input.organizationId,
        api_key_id: input.apiKeyId,
        key: input.key,
        method: input.method,
        path: input.path,
        body_hash: hash,
        state: 'in_progress',
        status: null,
        response_body: null,
        response_headers: null,
        created_at: now,
        expires_at: now + IDEMPOTENCY_TTL_MS,
      });
      if (inserted) return { kind: 'started', id };
      const existing = await this.repository.find(input.apiKeyId, input.key);
      if (!existing) continue; // completed with ≥ 500 and deleted meanwhile: try again
      if (existing.expires_at <= now) {
        await this.repository.deleteExpired(input.apiKeyId, input.key, now);
        continue;
      }
      if (existing.method !== input.method || existing.path !== input.path || existing.body_hash !== hash) {
        throw new DomainError(
          'idempotency_key_mismatch',
          'This Idempotency-Key was used with a different method, path or body; use a new key for a different request.',
        );
      }
      if (existing.state !== 'completed' || existing.status === null) {
        throw new DomainError(
          'idempotency_in_progress',
          'A request with this Idempotency-Key is still running; retry later.',
        );
      }
      return {
        kind: 'replay',
        response: {
          status: existing.status,
          body: bodyToReplay(this.box, existing.id, existing.response_body ?? '', SEALED_RESPONSE_FIELDS),
          headers: existing.response_headers ? (JSON.parse(existing.response_headers) as Record<string, string>) : {},
        },
      };
    }
    throw new DomainError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still running; retry later.',
    );
  }

  /**
   * Stores the response, secrets sealed and `fields.redacted` left out; one with status ≥ 500 is dropped so
   * a retry runs again.
   */
  async finish(id: string, response: StoredResponse, fields: StoredFields = {}): Promise<void> {
    if (response.status >= 500) {
      await this.repository.deleteById(id);
      return;
    }
    const body = bodyToStore(this.box, id, response.body, {
      redacted: fields.redacted ?? [],
      sealed: SEALED_RESPONSE_FIELDS,
    });
    await this.repository.complete(id, response.status, body, JSON.stringify(response.headers));
  }

  async abandon(id: string): Promise<void> {
    await this.repository.deleteById(id);
  }

  /** Deletes expired rows in chunks; returns how many went. */
  async purgeExpired(chunk = 1000, maxChunks = 100): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxChunks; i++) {
      const n = await this.repository.purgeChunk(this.clock.now(), chunk);
      total += n;
      if (n < chunk) break;
    }
    return total;
  }
}
