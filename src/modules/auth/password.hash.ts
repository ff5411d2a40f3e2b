import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost: N = 2^15, r = 8, p = 1 (memory-hard, 32 MiB per hash). Stored in the string, so it can grow. */
const LOG_N = 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // 128 * N * r bytes are needed; maxmem must exceed that or scrypt refuses.
    const maxmem = 256 * (options.N ?? 1) * (options.r ?? 8) + 1_048_576;
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A self-describing hash: `scrypt$<log2 N>$<r>$<p>$<salt base64url>$<key base64url>`, with a per-user salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N: 2 ** LOG_N, r: R, p: P });
  return `scrypt$${LOG_N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `password` matches `stored` (constant-time comparison); false for a malformed string. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![logN, r, p].every((n) => Number.isInteger(n) && n > 0) || logN > 22) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (expected.length === 0) return false;
  const actual = await derive(password, salt, { N: 2 ** logN, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, made once per process: an unknown address (or a user without a password) is
 * checked against it, so answering takes as long as for a wrong password of a real user.
 */
export class DummyPassword {
  private hash: Promise<string> | null = null;
  get(): Promise<string> {
    return (this.hash ??= hashPassword(randomBytes(16).toString('hex')));
  }
}

/** The password rules: 10..200 characters (a long passphrase is fine, a short one too easy to guess). */
export function passwordIssue(password: string): string | null {
  if (password.length < 10) return 'must be at least 10 characters';
  if (password.length > 200) return 'must be at most 200 characters';
  return null;
}
