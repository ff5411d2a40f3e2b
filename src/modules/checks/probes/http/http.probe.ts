/**
 * HTTP(S) probe, one hop at a time: resolve and vet the host → connect to that vetted address (the URL's name stays
 * the Host header and the TLS server name) → send → read the body up to a cap → follow a redirect (resolved and
 * vetted again). Every request runs on a fresh connection (http1.exchange.ts), so DNS, connect, TLS, first byte and
 * download are measured separately from socket events.
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { SecureContext } from 'node:tls';
import { assertionNeedsBody, evaluateAssertions } from '../../assertions/index.ts';
import { compileIgnorePatterns, contentDigest } from '../../../intelligence/index.ts';
import type { Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { num, ProbeFailure, resolveHost } from '../probe.net.ts';
import { createSecureContextCache, type SecureContextFor } from '../secure-context.cache.ts';
import { runProbeWithin, type Outcome, type ProbeRun } from '../probe.run.ts';
import { exchangeHttp1, serializeRequest } from './http1.exchange.ts';

export const HTTP_BODY_CAP = 1024 * 1024;
export const HTTP_MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Tocsin/0.1 (+uptime monitoring)';
/**
 * Bounds of `details.headers`: every response header is handed to intelligence, which drops the volatile ones and
 * watches the rest (docs/intelligence.md); these only cap what a hostile or broken server can make it hold.
 */
const MAX_KEPT_HEADERS = 100;
const MAX_HEADER_VALUE = 2048;

interface HttpConfig {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeout_ms: number;
  follow_redirects: boolean;
  verify_tls: boolean;
  /** PEM of CAs trusted besides the process's (a private CA, a self-signed certificate); null when none. */
  ca_certificate: string | null;
  assertions: Array<Record<string, unknown>>;
  /** Set when the monitor watches its content (config.content_ignore_patterns, [] included): the body is read and
   *  digested after removing these matches; null otherwise (the body is read only for assertions). */
  content_ignore: RegExp[] | null;
}

function readConfig(config: Record<string, unknown>): HttpConfig {
  const headers: Record<string, string> = {};
  if (config.headers && typeof config.headers === 'object') {
    for (const [k, v] of Object.entries(config.headers as Record<string, unknown>))
      if (typeof v === 'string') headers[k.toLowerCase()] = v;
  }
  return {
    method: typeof config.method === 'string' && config.method ? config.method.toUpperCase() : 'GET',
    headers,
    body: typeof config.body === 'string' ? config.body : null,
    timeout_ms: num(config.timeout_ms, 10_000),
    follow_redirects: config.follow_redirects !== false,
    verify_tls: config.verify_tls !== false,
    ca_certificate: typeof config.ca_certificate === 'string' ? config.ca_certificate : null,
    assertions: Array.isArray(config.assertions)
      ? (config.assertions as Array<Record<string, unknown>>).filter((a) => a && typeof a === 'object')
      : [],
    content_ignore: Array.isArray(config.content_ignore_patterns)
      ? compileIgnorePatterns(config.content_ignore_patterns.filter((p): p is string => typeof p === 'string'))
      : null,
  };
}

/** One request of the chain: the first, or where a redirect points. */
interface Hop {
  url: URL;
  method: string;
  body: string | null;
  /** The request's bytes, once serialized (a monitor's first hop keeps them for its next checks). */
  bytes?: Buffer;
}

/** A monitor's settings and first hop, parsed once per config object (see createHttpProbe). */
interface Prepared {
  target: string;
  cfg: HttpConfig;
  /** Made by the first check (inside its run: a target that is not a URL fails that check, and is not kept). */
  first: Hop | null;
}

interface HopResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Undefined unless an assertion reads the body. */
  body: Buffer | undefined;
  truncated: boolean;
  remote_address: string | null;
}

/** What every hop of one check shares. */
interface Exchange {
  cfg: HttpConfig;
  needBody: boolean;
  ctx: ProbeContext;
  run: ProbeRun;
  secureContext: SecureContext | undefined;
}

/** `secureContextFor`: the registry's cache, shared with the tls probe (monitors of one CA share a context). */
export function createHttpProbe(secureContextFor: SecureContextFor = createSecureContextCache()): Probe {
  // The engine hands every check of a monitor the same config object until the monitor is saved (its definition
  // cache), and nothing changes one in place: its settings, first URL and request bytes were made again on every check.
  const prepared = new WeakMap<object, Prepared>();
  const prepare = (target: ProbeTarget): Prepared => {
    const known = prepared.get(target.config);
    if (known && known.target === target.target) return known;
    const fresh: Prepared = { target: target.target, cfg: readConfig(target.config), first: null };
    prepared.set(target.config, fresh);
    return fresh;
  };
  return function httpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const monitor = prepare(target);
    const { cfg } = monitor;
    const timeoutMessage = `no complete response within ${cfg.timeout_ms} ms`;
    return runProbeWithin(ctx, { timeoutMs: cfg.timeout_ms, timeoutMessage }, async (run) => {
      const exchange: Exchange = {
        cfg,
        needBody: cfg.content_ignore !== null || cfg.assertions.some((a) => assertionNeedsBody(a as { type: string })),
        ctx,
        run,
        secureContext: secureContextFor([ctx.tlsCa, cfg.ca_certificate]),
      };
      const { hop, response, redirects } = await followRedirects(
        (monitor.first ??= firstHop(target.target, cfg)),
        exchange,
      );
      const duration_ms = run.elapsed();
      const details = describe(response, hop, redirects, cfg.content_ignore);
      return run.observation({
        http_status: response.status,
        details,
        duration_ms,
        ...verdict(cfg, response, duration_ms),
      });
    });
  };
}

function firstHop(target: string, cfg: HttpConfig): Hop {
  try {
    return { url: new URL(target), method: cfg.method, body: cfg.body };
  } catch {
    throw new ProbeFailure('invalid_target', `Not a valid URL: ${target}`);
  }
}

/** Sends hop after hop until a response is not a redirect to follow; at most HTTP_MAX_REDIRECTS redirects. */
async function followRedirects(
  first: Hop,
  exchange: Exchange,
): Promise<{ hop: Hop; response: HopResponse; redirects: number }> {
  let hop = first;
  for (let redirects = 0; ; redirects++) {
    const response = await send(hop, exchange);
    exchange.run.partial.http_status = response.status;
    const next = exchange.cfg.follow_redirects ? redirectOf(hop, response) : null;
    if (!next) return { hop, response, redirects };
    if (redirects + 1 > HTTP_MAX_REDIRECTS)
      throw new ProbeFailure('too_many_redirects', `more than ${HTTP_MAX_REDIRECTS} redirects`);
    hop = next;
  }
}

/** The hop a redirect response points to (303, and 301/302 after POST, turn into GET without a body), or null. */
function redirectOf(hop: Hop, response: HopResponse): Hop | null {
  const location = response.headers.location;
  if (!REDIRECTS.has(response.status) || typeof location !== 'string') return null;
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch {
    throw new ProbeFailure('protocol_error', `invalid redirect location ${JSON.stringify(location)}`);
  }
  const becomesGet =
    response.status === 303 || ((response.status === 301 || response.status === 302) && hop.method === 'POST');
  if (!becomesGet) return { url, method: hop.method, body: hop.body };
  return { url, method: hop.method === 'HEAD' ? 'HEAD' : 'GET', body: null };
}

/** One hop: resolve and vet its host, connect to that address, send, read the capped body. Timings are this hop's. */
async function send(hop: Hop, exchange: Exchange): Promise<HopResponse> {
  const { run, ctx, cfg } = exchange;
  if (hop.url.protocol !== 'http:' && hop.url.protocol !== 'https:')
    throw new ProbeFailure('invalid_target', `Unsupported URL scheme ${hop.url.protocol}`);
  const timings = run.timings;
  timings.dns_ms = timings.connect_ms = timings.tls_ms = timings.ttfb_ms = timings.download_ms = null;
  const vetted = await run.race(resolveHost(hop.url.hostname, ctx, timings));
  // No race below: an abort destroys the socket, which fails the exchange.
  const request = {
    url: hop.url,
    vetted,
    method: hop.method,
    headers: cfg.headers,
    body: hop.body,
    verifyTls: cfg.verify_tls,
    secureContext: exchange.secureContext,
    keepBody: exchange.needBody,
    bodyCap: HTTP_BODY_CAP,
    userAgent: USER_AGENT,
  };
  // The bytes depend only on the hop and the monitor's settings, not on the vetted address.
  const response = await exchangeHttp1(request, run, (hop.bytes ??= serializeRequest(request)));
  // The peer is the address connected to: no getpeername call per check.
  return { ...response, remote_address: vetted.address };
}

/** The facts intelligence watches: the response headers, body digest, address, redirects. */
function describe(
  response: HopResponse,
  hop: Hop,
  redirects: number,
  contentIgnore: RegExp[] | null,
): Record<string, unknown> {
  const headers: Record<string, string> = {};
  let kept = 0;
  for (const [name, v] of Object.entries(response.headers)) {
    if (v === undefined || kept >= MAX_KEPT_HEADERS) continue;
    // Cookie values are credentials: only the cookies' names are a fact worth watching.
    const value =
      name === 'set-cookie'
        ? (Array.isArray(v) ? v : [v]).map((c) => c.split('=')[0]!.trim()).join(', ')
        : Array.isArray(v)
          ? v.join(', ')
          : v;
    headers[name] = value.slice(0, MAX_HEADER_VALUE);
    kept++;
  }
  return {
    headers,
    body_sha256: response.body ? createHash('sha256').update(response.body).digest('hex') : null,
    ...(contentIgnore && response.body
      ? { content_digest: contentDigest(response.body.toString('utf8'), contentIgnore) }
      : {}),
    ...(response.truncated ? { body_truncated: true } : {}),
    remote_address: response.remote_address,
    redirects,
    ...(redirects > 0 ? { final_url: hop.url.href } : {}),
  };
}

/** Assertions decide when there are any; otherwise a status outside 200–399 is down. */
function verdict(cfg: HttpConfig, response: HopResponse, duration_ms: number): Pick<Outcome, 'error' | 'assertions'> {
  if (cfg.assertions.length === 0) {
    const ok = response.status >= 200 && response.status < 400;
    return { error: ok ? null : { code: 'http_status', message: `HTTP ${response.status}` }, assertions: [] };
  }
  const assertions = evaluateAssertions(cfg.assertions, {
    status: response.status,
    headers: response.headers,
    body: response.body?.toString('utf8'),
    duration_ms,
  });
  const failed = assertions.find((a) => !a.passed);
  const error = failed
    ? {
        code: 'assertion_failed' as const,
        message: `${failed.type} assertion failed (actual: ${JSON.stringify(failed.actual)})`,
      }
    : null;
  return { error, assertions };
}
