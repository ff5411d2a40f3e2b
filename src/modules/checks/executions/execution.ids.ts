import { isId } from '../../../platform/ids.ts';

/**
 * Execution ids. A stored execution has no text id: its primary key is a compact integer (`execution.id`,
 * the SQLite rowid / a PostgreSQL bigserial), allocated in insertion order. The public id is derived:
 *
 *   exe_ + 10 Crockford-base32 chars of started_at (epoch ms, as in every other id: time-sortable)
 *        + 16 Crockford-base32 chars of (key × K mod 2^80), K odd (a bijection, so the key is not a visible counter)
 *
 * `decodeExecutionId` returns the key and the started_at; the repository checks both, so an id whose time
 * part does not match the row is unknown.
 */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const MOD = 1n << 80n;
const MASK = MOD - 1n;
const K = 0x9e3779b97f4a7c15f39cc0605cedc835n & MASK; // odd
const K_INV = modInverse(K, MOD);

function modInverse(a: bigint, m: bigint): bigint {
  // Newton iteration for the inverse modulo a power of two: x ← x(2 − ax).
  let x = 1n;
  for (let i = 0; i < 7; i++) x = (x * (2n - ((a * x) & (m - 1n)))) & (m - 1n);
  return x;
}

function decodeBase32(text: string): bigint {
  let v = 0n;
  for (const c of text) {
    const digit = CROCKFORD.indexOf(c);
    if (digit < 0) throw new Error('not base32');
    v = (v << 5n) | BigInt(digit);
  }
  return v;
}

const LOW_40 = (1n << 40n) - 1n;

/** `chars` base32 digits of a non-negative integer below 2^53, most significant first. */
function encodeBase32Number(value: number, chars: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < chars; i++) {
    const digit = v % 32;
    out = CROCKFORD[digit]! + out;
    v = (v - digit) / 32;
  }
  return out;
}

/**
 * One per stored execution, on the check engine's hot path: the 80-bit product is split into two 40-bit numbers
 * once, so the digits are plain number arithmetic (digit by digit in BigInt allocated ≈ 2 KB per id).
 */
export function encodeExecutionId(key: number, startedAt: number): string {
  const mixed = (BigInt(key) * K) & MASK;
  const high = Number(mixed >> 40n);
  const low = Number(mixed & LOW_40);
  return `exe_${encodeBase32Number(startedAt, 10)}${encodeBase32Number(high, 8)}${encodeBase32Number(low, 8)}`;
}

/** The integer key and start time an `exe_…` id encodes, or null when it is not one of ours. */
export function decodeExecutionId(id: string): { key: number; startedAt: number } | null {
  if (!isId(id, 'exe')) return null;
  const startedAt = Number(decodeBase32(id.slice(4, 14)));
  const key = (decodeBase32(id.slice(14)) * K_INV) & MASK;
  if (key <= 0n || key > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { key: Number(key), startedAt };
}
