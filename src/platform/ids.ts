import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdPrefix =
  | 'org' | 'usr' | 'key' | 'mon' | 'exe' | 'inc' | 'dst' | 'dlv' | 'sla' | 'crp' | 'srp' | 'stp' | 'ine' | 'run'
  | 'evt' | 'req' | 'sac' | 'ses' | 'ver';

/**
 * An opaque, prefixed, time-sortable id: prefix, underscore, 10 chars of millisecond time and
 * 16 chars of randomness in Crockford base32 (a lower-case ULID).
 */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  let time = '';
  let t = nowMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[bytes[i]! % 32]!;
  return `${prefix}_${time}${rand}`;
}

const ID_PATTERN = /^[a-z]{3}_[0-9a-hjkmnp-tv-z]{26}$/;

export function isId(value: string, prefix: IdPrefix): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}

/** Random url-safe token (for heartbeat tokens, verification links, secrets). */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
