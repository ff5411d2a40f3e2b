import { randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

export type IdPrefix =
  | 'org'
  | 'usr'
  | 'key'
  | 'mon'
  | 'png'
  | 'exe'
  | 'inc'
  | 'dst'
  | 'dlv'
  | 'sla'
  | 'crp'
  | 'srp'
  | 'rpf'
  | 'stp'
  | 'bdg'
  | 'ine'
  | 'run'
  | 'evt'
  | 'req'
  | 'sac'
  | 'ses'
  | 'ver'
  | 'cor'
  | 'inv'
  | 'aud'
  | 'mnt'
  | 'sil'
  | 'ntc'
  | 'ntu'
  | 'sub'
  | 'msg';

// Random bytes are drawn from a pool refilled 4 KiB at a time: one randomBytes call per id (a request id
// on every request) costs more than the rest of newId.
const pool = { bytes: randomBytes(4096), offset: 4096 };
/** Reserves 16 unused bytes of the pool and returns where they start. */
function random16(): number {
  if (pool.offset + 16 > pool.bytes.length) {
    pool.bytes = randomBytes(4096);
    pool.offset = 0;
  }
  const at = pool.offset;
  pool.offset += 16;
  return at;
}

/**
 * An opaque, prefixed, time-sortable id: prefix, underscore, 10 chars of millisecond time and
 * 16 chars of randomness in Crockford base32 (a lower-case ULID).
 */
export function newId(prefix: IdPrefix, nowMs: number = Date.now()): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const at = random16();
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[pool.bytes[at + i]! % 32]!;
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
