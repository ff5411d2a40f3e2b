import { createHash } from 'node:crypto';
import { cdnFromCname, cdnFromHeaders, dnsProviderFromNs } from './infrastructure.signatures.ts';

/**
 * What intelligence keeps of one observation: only stable, comparable facts (reference §5.3).
 * Stored when it differs from the last one of the monitor and region.
 */
export interface ObservationSnapshot {
  /** Record type → sorted, normalised answers. */
  dns?: Record<string, string[]>;
  tls?: CertificateFacts;
  /** Stable response headers (volatile ones removed), lower-case names. */
  headers?: Record<string, string>;
  /** Digest of the body after normalisation. */
  content?: string;
  infrastructure?: InfrastructureFacts;
  /** domain monitors: the registrar the RDAP record names. */
  registrar?: string;
}

export interface CertificateFacts {
  fingerprint_sha256: string;
  subject: string;
  issuer: string;
  san: string[];
  not_after: string;
  protocol: string | null;
  cipher: string | null;
}

export interface InfrastructureFacts {
  addresses: string[];
  cdn: string | null;
  dns_provider: string | null;
}

/**
 * Headers that change on every response or every cache node: never a change (reference §5.3).
 * Set-Cookie is kept as its cookie names only.
 */
const VOLATILE_HEADERS = new Set([
  'date',
  'age',
  'expires',
  'etag',
  'last-modified',
  'content-length',
  'x-request-id',
  'x-correlation-id',
  'request-id',
  'x-amzn-requestid',
  'x-amzn-trace-id',
  'x-amz-cf-id',
  'x-amz-cf-pop',
  'x-amz-request-id',
  'x-amz-id-2',
  'cf-ray',
  'x-served-by',
  'x-cache',
  'x-cache-hits',
  'x-timer',
  'via',
  'server-timing',
  'x-runtime',
  'x-response-time',
  'x-vercel-id',
  'x-nf-request-id',
  'x-azure-ref',
  'x-akamai-request-id',
  'x-iinfo',
  'traceparent',
  'tracestate',
  'report-to',
  'nel',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'ratelimit-remaining',
  'ratelimit-reset',
  'keep-alive',
  'connection',
  'transfer-encoding',
]);

/** Security headers: a change to one of them is a warning, not information. */
export const SECURITY_HEADERS: ReadonlySet<string> = new Set([
  'strict-transport-security',
  'content-security-policy',
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'permissions-policy',
  'access-control-allow-origin',
  'cross-origin-resource-policy',
  'cross-origin-opener-policy',
]);

/** DNS answers compared as sets: lower-case, no trailing dot, MX "pref host", TXT strings joined. */
export function normaliseDnsAnswers(type: string, answers: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const a of answers) {
    let text = Array.isArray(a) ? a.join('') : typeof a === 'string' ? a : JSON.stringify(a);
    if (type !== 'TXT') text = text.trim().toLowerCase().replace(/\.$/, '').replace(/\s+/g, ' ');
    out.add(text);
  }
  return [...out].sort();
}

/** Response headers without the volatile ones; CSP nonces and cookie values removed. */
export function stableHeaders(headers: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (VOLATILE_HEADERS.has(name)) continue;
    const value = Array.isArray(rawValue) ? rawValue.map(String) : [String(rawValue)];
    if (name === 'set-cookie') {
      out[name] = value
        .map((c) => c.split('=')[0]!.trim())
        .sort()
        .join(', ');
    } else if (name === 'content-security-policy') {
      out[name] = value.join(', ').replace(/'nonce-[^']*'/g, "'nonce'");
    } else out[name] = value.join(', ').trim();
  }
  return out;
}

/**
 * SHA-256 of a body after removing what the monitor says to ignore (its `content_ignore_patterns`) and
 * collapsing whitespace, so re-indentation or a timestamp in the page is not a change.
 */
export function contentDigest(body: string, ignorePatterns: readonly RegExp[] = []): string {
  let text = body;
  for (const pattern of ignorePatterns) text = text.replace(pattern, '');
  text = text.replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(text).digest('hex');
}

/** Compiles ignore patterns from a monitor's config (already validated); global so every match goes. */
export function compileIgnorePatterns(patterns: readonly string[]): RegExp[] {
  return patterns.map((p) => new RegExp(p, 'g'));
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The snapshot of a probe's `details` (probe.contract.ts documents them per type). A failed check keeps only
 * what it still saw reliably (nothing for now: a failed check's missing facts are not changes).
 */
export function snapshotOf(
  type: string,
  up: boolean,
  details: Readonly<Record<string, unknown>> | undefined,
): ObservationSnapshot | null {
  if (!details || !up) return null;
  const snap: ObservationSnapshot = {};
  if (type === 'dns') {
    const recordType = text(details.record_type) ?? 'A';
    const answers = normaliseDnsAnswers(recordType, Array.isArray(details.answers) ? details.answers : []);
    snap.dns = { [recordType]: answers };
    const addresses = recordType === 'A' || recordType === 'AAAA' ? answers : [];
    const cdn = recordType === 'CNAME' ? cdnFromCname(answers) : null;
    const dnsProvider = recordType === 'NS' ? dnsProviderFromNs(answers) : null;
    if (addresses.length > 0 || cdn || dnsProvider) snap.infrastructure = { addresses, cdn, dns_provider: dnsProvider };
  }
  if (type === 'http') {
    const headers =
      details.headers && typeof details.headers === 'object' ? (details.headers as Record<string, unknown>) : {};
    snap.headers = stableHeaders(headers);
    const digest = text(details.content_digest) ?? text(details.body_sha256);
    if (digest) snap.content = digest;
    const address = text(details.remote_address);
    const lower: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = String(v);
    snap.infrastructure = {
      addresses: address ? [address] : [],
      cdn: cdnFromCname(strings(details.cnames)) ?? cdnFromHeaders(lower),
      dns_provider: null,
    };
    if (details.certificate && typeof details.certificate === 'object')
      snap.tls = certificateOf(details.certificate as Record<string, unknown>);
  }
  if (type === 'tls') {
    snap.tls = certificateOf(details);
    const address = text(details.remote_address);
    if (address) snap.infrastructure = { addresses: [address], cdn: null, dns_provider: null };
  }
  if (type === 'smtp' || type === 'websocket') {
    // smtp over STARTTLS / implicit TLS: the certificate is watched like a tls monitor's.
    if (details.certificate && typeof details.certificate === 'object')
      snap.tls = certificateOf(details.certificate as Record<string, unknown>);
    const address = text(details.remote_address);
    if (address) snap.infrastructure = { addresses: [address], cdn: null, dns_provider: null };
  }
  if (
    type === 'tcp' ||
    type === 'grpc' ||
    // the database types (their remote address; a query's value is no infrastructure)
    type === 'postgres' ||
    type === 'mysql' ||
    type === 'redis'
  ) {
    const address = text(details.remote_address);
    if (address) snap.infrastructure = { addresses: [address], cdn: null, dns_provider: null };
  }
  if (type === 'udp' || type === 'icmp') {
    const address = text(details.remote_address) ?? text(details.address);
    if (address) snap.infrastructure = { addresses: [address], cdn: null, dns_provider: null };
  }
  if (type === 'domain') {
    // The delegation the registry holds: a change of name servers or registrar is a change of who runs the domain.
    const nameservers = normaliseDnsAnswers('NS', strings(details.nameservers));
    if (nameservers.length > 0) {
      snap.dns = { NS: nameservers };
      const dnsProvider = dnsProviderFromNs(nameservers);
      if (dnsProvider) snap.infrastructure = { addresses: [], cdn: null, dns_provider: dnsProvider };
    }
    const registrar = text(details.registrar);
    if (registrar) snap.registrar = registrar;
  }
  return Object.keys(snap).length > 0 ? snap : null;
}

function certificateOf(d: Record<string, unknown>): CertificateFacts | undefined {
  const fingerprint = text(d.fingerprint_sha256);
  if (!fingerprint) return undefined;
  return {
    fingerprint_sha256: fingerprint,
    subject: text(d.subject) ?? '',
    issuer: text(d.issuer) ?? '',
    san: strings(d.san)
      .map((s) => s.toLowerCase())
      .sort(),
    not_after: text(d.valid_to) ?? '',
    protocol: text(d.protocol),
    cipher: text(d.cipher),
  };
}
