import type { ProviderContext, SendResult } from './destination.contract.ts';

/** What came back from one HTTP attempt. Never throws. */
export type HttpAttempt =
  | { kind: 'response'; status: number; headers: Headers; text: string; json: unknown }
  | { kind: 'failed'; reason: string };

export interface HttpRequestSpec {
  method: 'POST' | 'PUT' | 'PATCH';
  url: string;
  headers: Record<string, string>;
  body: string;
}

const MAX_BODY_CHARS = 64 * 1024;

/**
 * One request with the context's timeout; redirects are not followed (a 3xx comes back as a response).
 * Network errors and timeouts become `{kind:'failed'}` with a reason that names no URL.
 */
export async function httpAttempt(ctx: ProviderContext, spec: HttpRequestSpec): Promise<HttpAttempt> {
  const signal = AbortSignal.timeout(ctx.timeoutMs);
  try {
    const res = await ctx.fetch(spec.url, {
      method: spec.method,
      headers: { 'User-Agent': ctx.userAgent, ...spec.headers },
      body: spec.body,
      redirect: 'manual',
      signal,
    });
    let text = await res.text();
    if (text.length > MAX_BODY_CHARS) text = text.slice(0, MAX_BODY_CHARS);
    let json: unknown = undefined;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    return { kind: 'response', status: res.status, headers: res.headers, text, json };
  } catch (err) {
    return { kind: 'failed', reason: networkReason(err, ctx.timeoutMs) };
  }
}

/** A reason for a failed request that never contains the URL (it may hold a token). */
export function networkReason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: unknown; cause?: unknown } | null;
  if (e && (e.name === 'TimeoutError' || e.name === 'AbortError')) return `timed out after ${timeoutMs} ms`;
  const cause = e?.cause as { code?: unknown; name?: unknown; message?: unknown } | undefined;
  // The private-target guard's message names the host and address it refused, never the URL's path or query.
  if (cause?.code === 'EPRIVATETARGET' && typeof cause.message === 'string') return `refused: ${cause.message}`;
  if (cause && typeof cause.code === 'string') return `network error: ${cause.code}`;
  if (cause && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) return `timed out after ${timeoutMs} ms`;
  if (cause && typeof cause.name === 'string') return `network error: ${cause.name}`;
  return 'network error';
}

/** `Retry-After` as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export function retry(reason: string, retryAfterMs?: number): SendResult {
  return retryAfterMs === undefined
    ? { outcome: 'retry', reason }
    : { outcome: 'retry', reason, retry_after_ms: retryAfterMs };
}

/** The default classification for a response the provider-specific rules did not handle. */
export function classifyHttpStatus(status: number, headers: Headers, now: number, detail = ''): SendResult {
  const suffix = detail ? `: ${detail}` : '';
  if (status === 408 || status === 429 || status >= 500) {
    return retry(`HTTP ${status}${suffix}`, parseRetryAfter(headers.get('retry-after'), now));
  }
  if (status >= 300 && status < 400) {
    return {
      outcome: 'destination_broken',
      reason: `HTTP ${status} redirect (redirects are not followed; update the URL)`,
    };
  }
  if (status === 410) return { outcome: 'destination_broken', reason: `HTTP 410 Gone${suffix}` };
  return { outcome: 'payload_rejected', reason: `HTTP ${status}${suffix}` };
}

/** A short, single-line excerpt of a provider's error text for a reason string. */
export function excerpt(text: string, max = 200): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

/** Keeps scheme, host and the first path segment; masks the rest (webhook URLs carry their secret in the path/query). */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    const first = u.pathname.split('/').filter(Boolean)[0];
    return `${u.protocol}//${u.host}/${first ? `${first}/` : ''}****`;
  } catch {
    return '****';
  }
}

/** Adds query parameters to a URL, keeping the ones it already has. */
export function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

export function objectOrEmpty(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
