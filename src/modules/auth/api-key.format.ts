import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^tsk_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

function base62(bytes: Buffer, length: number): string {
  let out = '';
  let i = 0;
  while (out.length < length) {
    const b = bytes[i++ % bytes.length]!;
    // Rejection sampling keeps every character equally likely.
    if (b < 248) out += BASE62[b % 62];
    if (i >= bytes.length && out.length < length) {
      bytes = randomBytes(length);
      i = 0;
    }
  }
  return out;
}

function checksum(body: string): string {
  const digest = createHash('sha256').update(body).digest();
  let n = digest.readUInt32BE(0) * 65536 + digest.readUInt16BE(4);
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** A new key value: `tsk_` + 32 base62 random + 6-char checksum (DECISIONS §2). */
export function generateApiKey(): string {
  const body = base62(randomBytes(48), 32);
  return `tsk_${body}${checksum(body)}`;
}

/** Shape and checksum check, so typos and scanners are refused without touching the database. */
export function isWellFormedApiKey(value: string): boolean {
  const m = KEY_PATTERN.exec(value);
  return m !== null && checksum(m[1]!) === m[2];
}

/** Keys carry 190 bits of randomness, so a fast hash is enough; only this hash is stored. */
export function hashApiKey(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** What may be shown of a key later: enough to recognise it, not to use it. */
export function displayPrefix(value: string): string {
  return value.slice(0, 8);
}
