import { describe, expect, it } from 'vitest';
import { decodeExecutionId, encodeExecutionId } from './execution.ids.ts';

// The id as first defined, digit by digit in BigInt: the number arithmetic must give the same text for every key.
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';
const MASK = (1n << 80n) - 1n;
const K = 0x9e3779b97f4a7c15f39cc0605cedc835n & MASK;
function base32(value: bigint, chars: number): string {
  let out = '';
  for (let i = 0, v = value; i < chars; i++, v >>= 5n) out = CROCKFORD[Number(v & 31n)]! + out;
  return out;
}
const reference = (key: number, startedAt: number) =>
  `exe_${base32(BigInt(startedAt), 10)}${base32((BigInt(key) * K) & MASK, 16)}`;

describe('execution ids', () => {
  it('are the digit-by-digit BigInt text for small, large and random keys and times', () => {
    const keys = [1, 2, 31, 32, 1023, 2 ** 31, 2 ** 32 + 7, 2 ** 40 - 1, 2 ** 40, Number.MAX_SAFE_INTEGER];
    const times = [0, 1, 1_700_000_000_000, 1_795_000_000_123, 2 ** 50 - 1];
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let i = 0; i < 2_000; i++) keys.push(Math.floor(random() * Number.MAX_SAFE_INTEGER) + 1);
    for (const key of keys) {
      for (const startedAt of times) {
        const id = encodeExecutionId(key, startedAt);
        expect(id).toBe(reference(key, startedAt));
        expect(decodeExecutionId(id)).toEqual({ key, startedAt });
      }
    }
  });
});
