import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals short secrets (tokens, API keys, signing secrets) at rest with AES-256-GCM.
 * Sealed form: `v1:<base64(iv | tag | ciphertext)>`; the associated data binds a value to its owner
 * (e.g. the destination id) so a sealed value cannot be moved to another record.
 */
export class SecretBox {
  private readonly key: Buffer;
  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the master key must be 32 bytes');
    this.key = key;
  }

  seal(plain: string, associatedData = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64')}`;
  }

  /** Throws when the value was not sealed with this key and associated data. */
  open(sealed: string, associatedData = ''): string {
    if (!sealed.startsWith(`${VERSION}:`)) throw new Error('unknown sealed-secret format');
    const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
    const iv = raw.subarray(0, IV_BYTES);
    const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAAD(Buffer.from(associatedData, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}

export interface MasterKeyOptions {
  /** `config.masterKey`: base64 of 32 bytes, or null. */
  configured: string | null;
  dataDir: string;
  warn(message: string): void;
}

/**
 * The master key: from configuration, else `<dataDir>/master.key` (created with mode 0600 on first start,
 * with a warning: losing that file makes every sealed secret unreadable).
 */
export function loadMasterKey(options: MasterKeyOptions): Buffer {
  if (options.configured) return Buffer.from(options.configured, 'base64');
  const path = join(options.dataDir, 'master.key');
  if (existsSync(path)) {
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${path} does not hold a base64 32-byte key`);
    return key;
  }
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 }); // the data directory is private (as SQLite's)
  const key = randomBytes(32);
  try {
    writeFileSync(path, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another process created it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return loadMasterKey(options);
    throw err;
  }
  chmodSync(path, 0o600);
  options.warn(
    `No master_key configured: generated one into ${path}. Back it up (or set TOCSIN_MASTER_KEY / master_key); ` +
      'without it the sealed destination secrets cannot be read.',
  );
  return key;
}
