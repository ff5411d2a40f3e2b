import type { IncomingMessage } from 'node:http';
import { normaliseDomain } from '../../../modules/status-pages/index.ts';
import type { Clock } from '../../../platform/clock.ts';

/** How old the map of custom domains may get before a request starts reading it again (other processes' changes). */
export const CUSTOM_DOMAINS_MAX_AGE_MS = 5_000;

/** The host name of a Host header: lower case, without port and trailing dot ("[::1]:80" → "[::1]"). */
export function hostNameOf(host: string | undefined): string | null {
  if (!host) return null;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  return name === '' ? null : normaliseDomain(name);
}

/**
 * Serves a status page at the root of its custom domain (DECISIONS §18): before routing, a request whose Host is a
 * page's custom domain is rewritten onto the page's routes: `/` → `/status/{slug}`, `/status/{slug}…` as it is,
 * anything else → `/status/{slug}` + path (`/feed.atom` → `/status/{slug}/feed.atom`). So the page's own links
 * (absolute, under /status/{slug}) and every route of the page work there, and nothing else of the app does
 * (no API, no web app, no other page on a customer's domain).
 *
 * Routing is synchronous, so the domains are a map in memory: read at start, again right after this process
 * changes a page, and at most CUSTOM_DOMAINS_MAX_AGE_MS old otherwise (a request finding it older reads it again in
 * the background: a domain set through another process is served within seconds). Only the Host header counts,
 * never X-Forwarded-Host: the proxy in front must pass the Host it received (docs/operations.md).
 */
export class CustomDomainRouter {
  private readonly load: () => Promise<Map<string, string>>;
  private readonly clock: Clock;
  private readonly onError: (err: unknown) => void;
  private domains = new Map<string, string>();
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | null = null;

  constructor(deps: { load: () => Promise<Map<string, string>>; clock: Clock; onError: (err: unknown) => void }) {
    this.load = deps.load;
    this.clock = deps.clock;
    this.onError = deps.onError;
  }

  /** Reads the domains again (one read at a time; a call during a read waits for a read that starts after it). */
  async refresh(): Promise<void> {
    const pending = this.loading;
    if (pending) await pending.catch(() => {});
    const started = this.clock.now();
    const read = this.load().then((domains) => {
      this.domains = domains;
      this.loadedAt = started;
    });
    this.loading = read;
    try {
      await read;
    } finally {
      if (this.loading === read) this.loading = null;
    }
  }

  /** The slug served at this Host, or null. */
  slugFor(host: string | undefined): string | null {
    if (this.clock.now() - this.loadedAt > CUSTOM_DOMAINS_MAX_AGE_MS && !this.loading) {
      this.refresh().catch(this.onError);
    }
    const name = hostNameOf(host);
    return name === null ? null : (this.domains.get(name) ?? null);
  }

  /** Fastify's rewriteUrl: the URL to route this request by. */
  rewrite(request: IncomingMessage): string {
    const url = request.url ?? '/';
    const slug = this.slugFor(request.headers.host);
    if (slug === null) return url;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const query = queryAt === -1 ? '' : url.slice(queryAt);
    const base = `/status/${slug}`;
    if (path === '/' || path === '') return base + query;
    if (path === base || path.startsWith(`${base}.`) || path.startsWith(`${base}/`)) return url;
    return base + path + query;
  }
}
