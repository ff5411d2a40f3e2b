/** Network helpers shared by the probes: target parsing, timed resolution, private-address guard, error mapping. */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Observation, ProbeContext, ProbeError, ProbeErrorCode, ProbeTimings } from './probe.contract.ts';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/** Loopback, private, link-local, CGNAT, unspecified, multicast and other non-public ranges. */
export function createPrivateAddressList(): BlockList {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
    ['64:ff9b::', 96],
    ['2001:db8::', 32],
    ['100::', 64],
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const privateList = createPrivateAddressList();

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return privateList.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return privateList.check(mapped[1], 'ipv4');
    return privateList.check(address, 'ipv6');
  }
  return true;
}

/** A failure inside a probe that already knows its observation code. */
export class ProbeFailure extends Error {
  readonly code: ProbeErrorCode;
  constructor(code: ProbeErrorCode, message: string) {
    super(message);
    this.name = 'ProbeFailure';
    this.code = code;
  }
}

export interface HostPort {
  host: string;
  port: number;
}

/** Parses `host:port`, `[v6]:port` or (when `allowUrl`) `scheme://host[:port]`. */
export function parseHostPort(target: string, defaultPort?: number, allowUrl = false): HostPort {
  const text = target.trim();
  if (allowUrl && /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    let u: URL;
    try {
      u = new URL(text);
    } catch {
      throw new ProbeFailure('invalid_target', `Not a valid URL: ${target}`);
    }
    const host = u.hostname.replace(/^\[|\]$/g, '');
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : defaultPort;
    if (!host || port === undefined)
      throw new ProbeFailure('invalid_target', `Target needs a host and port: ${target}`);
    return { host, port };
  }
  let host: string;
  let portText: string | undefined;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) {
    host = v6[1]!;
    portText = v6[2];
  } else {
    const idx = text.lastIndexOf(':');
    if (idx >= 0 && text.indexOf(':') === idx) {
      host = text.slice(0, idx);
      portText = text.slice(idx + 1);
    } else {
      host = text;
    }
  }
  const port = portText === undefined || portText === '' ? defaultPort : Number(portText);
  if (!host || port === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new ProbeFailure('invalid_target', `Target must be host:port, got ${JSON.stringify(target)}`);
  }
  if (!isIP(host) && !/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?$/i.test(host)) {
    throw new ProbeFailure('invalid_target', `Not a valid host name: ${JSON.stringify(host)}`);
  }
  return { host, port };
}

export interface Resolved {
  address: string;
  family: 4 | 6;
  /** null when the host was an IP literal. */
  dns_ms: number | null;
}

/** Resolves a host (timed), then refuses non-public addresses unless allowed. */
export async function resolveHost(host: string, ctx: ProbeContext, timings?: ProbeTimings): Promise<Resolved> {
  const literal = isIP(host);
  let resolved: Resolved;
  if (literal) {
    resolved = { address: host, family: literal as 4 | 6, dns_ms: null };
  } else {
    const t0 = performance.now();
    try {
      const r = await lookup(host);
      resolved = { address: r.address, family: r.family as 4 | 6, dns_ms: round(performance.now() - t0) };
    } catch (err) {
      throw new ProbeFailure(
        'dns',
        `Could not resolve ${host}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  if (timings) timings.dns_ms = resolved.dns_ms;
  if (!ctx.allowPrivateTargets && isPrivateAddress(resolved.address)) {
    throw new ProbeFailure('private_target', `${host} resolves to a non-public address (${resolved.address})`);
  }
  return resolved;
}

export function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const TLS_INVALID = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'INVALID_CA',
  'CERT_CHAIN_TOO_LONG',
  'INVALID_PURPOSE',
  'CERT_REJECTED',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** Maps any error thrown during a check to an observation error. */
export function classifyError(err: unknown): ProbeError {
  if (err instanceof ProbeFailure) return { code: err.code, message: err.message };
  const e = err as NodeJS.ErrnoException & { reason?: string };
  const code = e?.code ?? '';
  const message = e?.message ?? String(err);
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return { code: 'timeout', message };
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return { code: 'dns', message };
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return { code: 'connect_refused', message };
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
    case 'UND_ERR_SOCKET':
      return { code: 'connect_reset', message };
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
    case 'ABORT_ERR':
      return { code: 'timeout', message };
    case 'CERT_HAS_EXPIRED':
      return { code: 'tls_expired', message };
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return { code: 'tls_hostname_mismatch', message };
  }
  if (TLS_INVALID.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))
    return { code: 'tls_invalid', message };
  if (code.startsWith('HPE_') || code === 'ERR_INVALID_HTTP_RESPONSE') return { code: 'protocol_error', message };
  if (
    [
      'ERR_INVALID_URL',
      'ERR_INVALID_ARG_TYPE',
      'ERR_INVALID_ARG_VALUE',
      'ERR_INVALID_CHAR',
      'ERR_INVALID_HTTP_TOKEN',
      'ERR_UNESCAPED_CHARACTERS',
    ].includes(code)
  ) {
    return { code: 'invalid_target', message };
  }
  return { code: 'protocol_error', message: message || 'unknown failure' };
}

export function emptyTimings(total_ms: number): ProbeTimings {
  return { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, download_ms: null, total_ms };
}

/** A `down` observation for an error. */
export function downObservation(
  started_at: number,
  t0: number,
  error: ProbeError,
  partial?: Partial<Observation>,
): Observation {
  const duration_ms = round(performance.now() - t0);
  return {
    status: 'down',
    started_at,
    duration_ms,
    timings: partial?.timings ?? emptyTimings(duration_ms),
    http_status: partial?.http_status ?? null,
    assertions: partial?.assertions ?? [],
    error,
    ...(partial?.details ? { details: partial.details } : {}),
  };
}

export function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * Secure contexts that trust the system roots plus one extra CA (ProbeContext.tlsCa), built once per CA:
 * building one parses every root certificate.
 */
export function createSecureContextCache(): (ca: string) => SecureContext {
  const contexts = new Map<string, SecureContext>();
  return (ca) => {
    let sc = contexts.get(ca);
    if (!sc) {
      sc = createSecureContext({ ca: [...rootCertificates, ca] });
      if (contexts.size > 16) contexts.clear();
      contexts.set(ca, sc);
    }
    return sc;
  };
}
