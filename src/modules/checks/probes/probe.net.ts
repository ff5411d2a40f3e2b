/** Network helpers shared by the probes: target parsing, vetted resolution, error mapping. */
import { isIP } from 'node:net';
import {
  PrivateTargetError,
  canonicalHost,
  isPublicAddress,
  resolveVetted,
  systemResolver,
  type VettedHost,
} from '../../../platform/net/index.ts';
import type { Observation, ProbeContext, ProbeError, ProbeErrorCode, ProbeTimings } from './probe.contract.ts';

/** True for every address the private-target guard refuses (platform/net holds the one classification). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
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

/**
 * Resolves a host once (timed; an IP literal is not resolved) through `ctx.resolver` (the system's by default) and,
 * unless private targets are allowed, refuses it when any address is special-purpose. The probe then connects to
 * `address` itself, so a later DNS answer cannot redirect the connection (DNS rebinding).
 */
export async function resolveHost(host: string, ctx: ProbeContext, timings?: ProbeTimings): Promise<VettedHost> {
  const t0 = performance.now();
  const policy = { allowPrivateTargets: ctx.allowPrivateTargets, resolver: ctx.resolver ?? systemResolver };
  try {
    const vetted = await resolveVetted(host, policy);
    if (timings) timings.dns_ms = vetted.resolved ? round(performance.now() - t0) : null;
    return vetted;
  } catch (err) {
    if (err instanceof PrivateTargetError) {
      if (timings && !isIP(canonicalHost(host))) timings.dns_ms = round(performance.now() - t0);
      throw new ProbeFailure('private_target', err.message);
    }
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ProbeFailure('dns', `Could not resolve ${host}: ${code}`);
  }
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
    case 'EPRIVATETARGET':
      return { code: 'private_target', message };
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
