import { createHash, randomBytes } from 'node:crypto';

/** An unguessable link token: 32 random bytes, base64url (43 characters). */
export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a link token: its SHA-256 (hex); the token itself is only in the mail. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
