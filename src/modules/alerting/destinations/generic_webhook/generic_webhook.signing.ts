import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new signing secret in the Standard Webhooks format: `whsec_` + base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * Key bytes for the Standard Webhooks signature: the base64 part after `whsec_` (what the standard-webhooks
 * libraries do); a secret without the prefix is used as UTF-8.
 */
function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

export interface SignInput {
  secret: string;
  /** webhook-id: the delivery id, stable across retries. */
  id: string;
  /** webhook-timestamp: Unix seconds of this attempt. */
  timestamp: number;
  /** The exact raw body bytes that are sent. */
  body: string;
}

export interface WebhookSignatures {
  /** `sha256=<hex HMAC-SHA256(raw body)>` keyed with the secret string as shown to the user (GitHub style). */
  'X-Service-Signature': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  /** `v1,<base64 HMAC-SHA256("id.timestamp.body")>` keyed with the decoded `whsec_` secret (Standard Webhooks). */
  'webhook-signature': string;
}

export function signWebhook(input: SignInput): WebhookSignatures {
  const hex = createHmac('sha256', Buffer.from(input.secret, 'utf8')).update(input.body, 'utf8').digest('hex');
  const ts = String(Math.floor(input.timestamp));
  const v1 = createHmac('sha256', standardKey(input.secret))
    .update(`${input.id}.${ts}.${input.body}`, 'utf8')
    .digest('base64');
  return {
    'X-Service-Signature': `sha256=${hex}`,
    'webhook-id': input.id,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${v1}`,
  };
}

export interface VerifyInput {
  secret: string;
  /** Request headers (any case; Node's IncomingHttpHeaders or a plain object). */
  headers: Record<string, string | string[] | undefined>;
  /** Raw body exactly as received. */
  body: string;
  /** Epoch ms; defaults to Date.now(). */
  now?: number;
  /** Allowed clock skew for webhook-timestamp, seconds (default 300). */
  toleranceSeconds?: number;
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

function header(headers: VerifyInput['headers'], name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Verifies both the X-Service-Signature and the Standard Webhooks signature (with replay tolerance). */
export function verifyWebhook(input: VerifyInput): VerifyResult {
  const id = header(input.headers, 'webhook-id');
  const ts = header(input.headers, 'webhook-timestamp');
  const sig = header(input.headers, 'webhook-signature');
  const legacy = header(input.headers, 'x-service-signature');
  if (!id || !ts || !sig || !legacy) return { ok: false, reason: 'missing signature headers' };
  if (!/^\d+$/.test(ts)) return { ok: false, reason: 'bad webhook-timestamp' };
  const now = Math.floor((input.now ?? Date.now()) / 1000);
  if (Math.abs(now - Number(ts)) > (input.toleranceSeconds ?? 300))
    return { ok: false, reason: 'timestamp outside tolerance' };
  const expected = signWebhook({ secret: input.secret, id, timestamp: Number(ts), body: input.body });
  if (!safeEqual(legacy, expected['X-Service-Signature'])) return { ok: false, reason: 'X-Service-Signature mismatch' };
  const candidates = sig.split(' ').filter(Boolean);
  if (!candidates.some((c) => safeEqual(c, expected['webhook-signature'])))
    return { ok: false, reason: 'webhook-signature mismatch' };
  return { ok: true };
}
