/**
 * HTTP(S) probe. Every request runs on a fresh connection (`agent: false`), so DNS, connect, TLS,
 * first byte and download are measured separately from socket events. The host is resolved once per hop
 * by us (timed, checked against the private-address guard), and the request connects to that address.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { assertionNeedsBody, evaluateAssertions } from '../../assertions/index.ts';
import type { Observation, Probe, ProbeContext, ProbeTarget, ProbeTimings } from '../probe.contract.ts';
import {
  classifyError,
  createSecureContextCache,
  downObservation,
  num,
  ProbeFailure,
  resolveHost,
  round,
} from '../probe.net.ts';

export const HTTP_BODY_CAP = 1024 * 1024;
export const HTTP_MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'Tocsin/0.1 (+uptime monitoring)';
/** Response headers kept in `details.headers` (intelligence watches them). */
const KEPT_HEADERS = [
  'content-type',
  'content-length',
  'server',
  'cache-control',
  'etag',
  'last-modified',
  'location',
  'strict-transport-security',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'x-powered-by',
  'via',
];

interface HttpConfig {
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeout_ms: number;
  follow_redirects: boolean;
  verify_tls: boolean;
  assertions: Array<Record<string, unknown>>;
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
    assertions: Array.isArray(config.assertions)
      ? (config.assertions as Array<Record<string, unknown>>).filter((a) => a && typeof a === 'object')
      : [],
  };
}

interface HopResult {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer | undefined;
  truncated: boolean;
  remote_address: string | null;
}

/** Aborts the in-flight request of a check (timeout or ctx.signal). */
interface Abort {
  reason: ProbeFailure | null;
  req: ClientRequest | null;
  reject: ((err: Error) => void) | null;
}

export function createHttpProbe(): Probe {
  const secureContextFor = createSecureContextCache();

  function hop(
    url: URL,
    address: string,
    cfg: HttpConfig,
    method: string,
    body: string | null,
    needBody: boolean,
    ctx: ProbeContext,
    timings: ProbeTimings,
    abort: Abort,
  ): Promise<HopResult> {
    return new Promise<HopResult>((resolve, reject) => {
      if (abort.reason) return reject(abort.reason);
      const https = url.protocol === 'https:';
      const headers: OutgoingHttpHeaders = { host: url.host, 'user-agent': USER_AGENT, accept: '*/*', ...cfg.headers };
      if (body !== null) headers['content-length'] = Buffer.byteLength(body);
      const tStart = performance.now();
      let tConnect = 0;
      let tSecure = 0;
      let tResponse = 0;
      let settled = false;
      const fail = (err: Error): void => {
        if (settled) return;
        settled = true;
        abort.req = null;
        abort.reject = null;
        reject(err);
      };
      const options = {
        host: address,
        port: url.port ? Number(url.port) : https ? 443 : 80,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        agent: false as const,
        ...(https
          ? {
              servername: isIP(url.hostname.replace(/^\[|\]$/g, '')) ? '' : url.hostname,
              rejectUnauthorized: cfg.verify_tls,
              ...(ctx.tlsCa ? { secureContext: secureContextFor(ctx.tlsCa) } : {}),
            }
          : {}),
      };
      const req = (https ? httpsRequest : httpRequest)(options);
      abort.req = req;
      abort.reject = fail;
      req.once('socket', (socket: Socket) => {
        socket.once('connect', () => {
          tConnect = performance.now();
          timings.connect_ms = round(tConnect - tStart);
        });
        if (https) {
          socket.once('secureConnect', () => {
            tSecure = performance.now();
            timings.tls_ms = round(tSecure - (tConnect || tStart));
          });
        }
      });
      req.on('error', fail);
      req.once('response', (res: IncomingMessage) => {
        tResponse = performance.now();
        timings.ttfb_ms = round(tResponse - (tSecure || tConnect || tStart));
        const remote_address = res.socket?.remoteAddress ?? null;
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        const finish = (): void => {
          if (settled) return;
          settled = true;
          abort.req = null;
          abort.reject = null;
          timings.download_ms = round(performance.now() - tResponse);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: needBody ? ((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) ?? Buffer.alloc(0)) : undefined,
            truncated,
            remote_address,
          });
        };
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (needBody) {
            const room = HTTP_BODY_CAP - (size - chunk.length);
            chunks.push(room >= chunk.length ? chunk : chunk.subarray(0, Math.max(0, room)));
          }
          if (size >= HTTP_BODY_CAP && !res.complete) {
            truncated = true;
            finish();
            res.destroy();
          }
        });
        res.once('end', finish);
        res.on('error', fail);
        res.once('close', () => {
          if (!settled && !res.complete)
            fail(Object.assign(new Error('connection closed before the response ended'), { code: 'ECONNRESET' }));
        });
      });
      if (body !== null) req.end(body);
      else req.end();
    });
  }

  return async function httpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const t0 = performance.now();
    const started_at = ctx.now();
    const timings: ProbeTimings = {
      dns_ms: null,
      connect_ms: null,
      tls_ms: null,
      ttfb_ms: null,
      download_ms: null,
      total_ms: 0,
    };
    let http_status: number | null = null;
    const details: Record<string, unknown> = {};
    const abort: Abort = { reason: null, req: null, reject: null };
    const cancel = (reason: ProbeFailure): void => {
      if (abort.reason) return;
      abort.reason = reason;
      if (abort.req) abort.req.destroy(reason);
      if (abort.reject) abort.reject(reason);
    };
    let cfg: HttpConfig | undefined;
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => cancel(new ProbeFailure('timeout', 'check aborted'));
    try {
      cfg = readConfig(target.config);
      const timeoutMs = cfg.timeout_ms;
      timer = setTimeout(
        () => cancel(new ProbeFailure('timeout', `no complete response within ${timeoutMs} ms`)),
        timeoutMs,
      );
      if (ctx.signal) {
        if (ctx.signal.aborted) onAbort();
        else ctx.signal.addEventListener('abort', onAbort, { once: true });
      }
      const needBody = cfg.assertions.some((a) => assertionNeedsBody(a as { type: string }));
      let url: URL;
      try {
        url = new URL(target.target);
      } catch {
        throw new ProbeFailure('invalid_target', `Not a valid URL: ${target.target}`);
      }
      let method = cfg.method;
      let body = cfg.body;
      let redirects = 0;
      let result: HopResult;
      for (;;) {
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          throw new ProbeFailure('invalid_target', `Unsupported URL scheme ${url.protocol}`);
        if (abort.reason) throw abort.reason;
        timings.dns_ms = timings.connect_ms = timings.tls_ms = timings.ttfb_ms = timings.download_ms = null;
        const host = url.hostname.replace(/^\[|\]$/g, '');
        const resolved =
          isIP(host) && ctx.allowPrivateTargets
            ? { address: host, dns_ms: null }
            : await raceAbort(resolveHost(host, ctx, timings), abort);
        timings.dns_ms = resolved.dns_ms;
        result = await hop(url, resolved.address, cfg, method, body, needBody, ctx, timings, abort);
        http_status = result.status;
        const location = result.headers.location;
        if (!cfg.follow_redirects || !REDIRECTS.has(result.status) || typeof location !== 'string') break;
        if (++redirects > HTTP_MAX_REDIRECTS)
          throw new ProbeFailure('too_many_redirects', `more than ${HTTP_MAX_REDIRECTS} redirects`);
        try {
          url = new URL(location, url);
        } catch {
          throw new ProbeFailure('protocol_error', `invalid redirect location ${JSON.stringify(location)}`);
        }
        if (result.status === 303 || ((result.status === 301 || result.status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = null;
        }
      }
      const total_ms = round(performance.now() - t0);
      timings.total_ms = total_ms;
      const kept: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const v = result.headers[name];
        if (v !== undefined) kept[name] = Array.isArray(v) ? v.join(', ') : v;
      }
      details.headers = kept;
      details.body_sha256 = result.body ? createHash('sha256').update(result.body).digest('hex') : null;
      if (result.truncated) details.body_truncated = true;
      details.remote_address = result.remote_address;
      details.redirects = redirects;
      if (redirects > 0) details.final_url = url.href;

      const assertions = cfg.assertions.length
        ? evaluateAssertions(cfg.assertions, {
            status: result.status,
            headers: result.headers,
            body: result.body?.toString('utf8'),
            duration_ms: total_ms,
          })
        : [];
      let error: Observation['error'] = null;
      if (assertions.length) {
        const failed = assertions.find((a) => !a.passed);
        if (failed)
          error = {
            code: 'assertion_failed',
            message: `${failed.type} assertion failed (actual: ${JSON.stringify(failed.actual)})`,
          };
      } else if (result.status < 200 || result.status >= 400) {
        error = { code: 'http_status', message: `HTTP ${result.status}` };
      }
      return {
        status: error ? 'down' : 'up',
        started_at,
        duration_ms: total_ms,
        timings,
        http_status,
        assertions,
        error,
        details,
      };
    } catch (err) {
      const obs = downObservation(started_at, t0, classifyError(abort.reason ?? err), {
        http_status,
        ...(Object.keys(details).length ? { details } : {}),
      });
      timings.total_ms = obs.duration_ms;
      obs.timings = timings;
      return obs;
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onAbort);
    }
  };
}

/** Lets a non-cancellable step (DNS lookup) lose the race against the check's timeout. */
function raceAbort<T>(p: Promise<T>, abort: Abort): Promise<T> {
  if (abort.reason) return Promise.reject(abort.reason);
  return new Promise<T>((resolve, reject) => {
    abort.reject = reject;
    p.then(
      (v) => {
        abort.reject = null;
        resolve(v);
      },
      (e: unknown) => {
        abort.reject = null;
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
