/**
 * The one way out of the process to a host someone named (monitor targets, webhook and provider URLs, graded hosts
 * and their `mta-sts.` hosts, gRPC discovery): resolve the host once, vet every address it has against the policy
 * (platform/net's special-purpose ranges, unless `network.allow_private_targets`), and connect to exactly the vetted
 * address. HTTP goes through undici with a `lookup` that answers the pinned address, the URL's name staying the Host
 * header and TLS server name; every redirect hop is vetted the same way before it connects.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { createPinnedResolution, type PinnedResolution } from './host.lookup.ts';
import type { NetworkPolicy, VettedHost } from './host.resolution.ts';
import { connectTcpTo, connectTlsTo, type PinnedTlsOptions } from './vetted.sockets.ts';

/** `fetch`'s init, plus the TLS settings of the connections it makes. */
export interface OutboundRequestInit extends RequestInit {
  /** Extra trusted CA (PEM), or `rejectUnauthorized: false` to measure a server without trusting it. */
  tls?: { ca?: string; rejectUnauthorized?: boolean };
  /** Redirects followed when `redirect` is 'follow' (the default, as in fetch): 5 unless told. */
  maxRedirects?: number;
}

export type OutboundFetch = (input: string | URL, init?: OutboundRequestInit) => Promise<Response>;

export interface OutboundConnector {
  readonly policy: NetworkPolicy;
  /** Resolves and vets `host` (an IP literal is vetted without DNS); rejects with PrivateTargetError when refused. */
  vet(host: string): Promise<VettedHost>;
  /**
   * fetch over connections pinned to vetted addresses; a refused host rejects like a network failure would
   * (TypeError "fetch failed" whose `cause` is the PrivateTargetError, code EPRIVATETARGET).
   */
  fetch: OutboundFetch;
  /** A TCP connection to the host's vetted address. */
  connectTcp(host: string, port: number): Promise<Socket>;
  /** A TLS connection to the host's vetted address, the host (when a name) as server name. */
  connectTls(host: string, port: number, options: PinnedTlsOptions): Promise<TLSSocket>;
  /**
   * The same connector, but each host is resolved once for the returned connector's whole life: every connection
   * of one piece of work (a grading run, a webhook send) goes to the address vetted first.
   */
  pinned(): OutboundConnector;
  /**
   * The same resolver with every address allowed, for endpoints the operator configured (provider base URLs, the
   * DNS resolver, the control plane): still resolved once and pinned per use, never re-resolved mid-connection.
   */
  trusted(): OutboundConnector;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createOutboundConnector(policy: NetworkPolicy): OutboundConnector {
  return connectorOver(policy, null);
}

/** `shared` pins hosts across calls (a pinned connector); without it each call pins its own hosts. */
function connectorOver(policy: NetworkPolicy, shared: PinnedResolution | null): OutboundConnector {
  const resolution = (): PinnedResolution => shared ?? createPinnedResolution(policy);
  const vet = (host: string): Promise<VettedHost> => resolution().resolve(host);
  return {
    policy,
    vet,
    fetch: (input, init) => pinnedFetch(resolution(), input, init),
    connectTcp: async (host, port) => connectTcpTo(await vet(host), port),
    connectTls: async (host, port, options) => connectTlsTo(await vet(host), port, options),
    pinned: () => connectorOver(policy, createPinnedResolution(policy)),
    trusted: () => createOutboundConnector({ ...policy, allowPrivateTargets: true }),
  };
}

async function pinnedFetch(
  resolution: PinnedResolution,
  input: string | URL,
  init: OutboundRequestInit = {},
): Promise<Response> {
  const { tls, maxRedirects = 5, redirect = 'follow', ...request } = init;
  let url = new URL(input);
  let method = (request.method ?? 'GET').toUpperCase();
  let body = request.body;
  const headers = new Headers(request.headers);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError('fetch failed', { cause: new Error(`unsupported scheme ${url.protocol}`) });
    try {
      // Vetted here, not only in `lookup`: Node never calls `lookup` for an IP literal.
      await withinSignal(resolution.resolve(url.hostname), request.signal);
    } catch (err) {
      if (request.signal?.aborted && err === request.signal.reason) throw err;
      throw new TypeError('fetch failed', { cause: err });
    }
    const dispatcher = new Agent({ connect: { lookup: resolution.lookup, ...tls } });
    let response: Response;
    try {
      // undici's fetch is the implementation behind the global one; its types differ only in nominal class names.
      response = (await undiciFetch(url, {
        ...(request as object),
        method,
        headers,
        body,
        redirect: 'manual',
        dispatcher,
      } as unknown as Parameters<typeof undiciFetch>[1])) as unknown as Response;
    } finally {
      // Graceful: waits for the response body the caller still reads, then closes the connection.
      void dispatcher.close();
    }
    const location = response.headers.get('location');
    if (redirect === 'manual' || !REDIRECTS.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (redirect === 'error') throw new TypeError('fetch failed', { cause: new Error('redirect refused') });
    if (hop >= maxRedirects) throw new TypeError('fetch failed', { cause: new Error('too many redirects') });
    const next = new URL(location, url);
    // As fetch does: credentials are not carried to another origin.
    if (next.origin !== url.origin)
      for (const name of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(name);
    url = next;
    // As fetch does: 303 turns into GET, and so do 301/302 after a POST; 307/308 repeat the request.
    if ((response.status === 303 && method !== 'HEAD') || (response.status <= 302 && method === 'POST')) {
      method = 'GET';
      body = null;
      headers.delete('content-type');
      headers.delete('content-length');
    }
  }
}

/** `work`, or the signal's reason as soon as it aborts (a slow resolver must not outlast the caller's timeout). */
function withinSignal<T>(work: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
