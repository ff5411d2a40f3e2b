import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { StatusPage } from './status-page.types.ts';

/** How long a page session lasts after the password was given. */
export const PAGE_SESSION_MS = 7 * 86_400_000;

/** The cookie that carries a page's session: one per page, so a session opens that page only. */
export function pageSessionCookieName(page: Pick<StatusPage, 'id'>): string {
  return `tocsin_page_${page.id}`;
}

/**
 * A page session is a signed cookie value `<expires ms>.<HMAC>`: the MAC covers the page id, the expiry and a digest
 * of the page's password hash, so it opens this page only, ends on time, and every session ends when the password
 * changes. Nothing is stored: the key (derived from the master key) is the same in every process.
 */
export class PageSessionSigner {
  private readonly key: Buffer;
  constructor(key: Buffer) {
    if (key.length < 32) throw new Error('the page session key must be at least 32 bytes');
    this.key = key;
  }

  issue(page: Pick<StatusPage, 'id' | 'passwordHash'>, now: number): { value: string; expiresAt: number } {
    const expiresAt = now + PAGE_SESSION_MS;
    return { value: `${expiresAt}.${this.mac(page, expiresAt)}`, expiresAt };
  }

  valid(page: Pick<StatusPage, 'id' | 'passwordHash'>, value: string | undefined, now: number): boolean {
    if (value === undefined || page.passwordHash === null) return false;
    const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return false;
    const expiresAt = Number(match[1]);
    if (!(expiresAt > now)) return false;
    const expected = Buffer.from(this.mac(page, expiresAt));
    const given = Buffer.from(match[2]!);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  private mac(page: Pick<StatusPage, 'id' | 'passwordHash'>, expiresAt: number): string {
    const passwordDigest = createHash('sha256')
      .update(page.passwordHash ?? '')
      .digest('base64url');
    return createHmac('sha256', this.key).update(`${page.id}\n${expiresAt}\n${passwordDigest}`).digest('base64url');
  }
}
