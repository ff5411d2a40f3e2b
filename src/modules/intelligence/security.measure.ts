/**
 * What a single Node.js client can measure for the security grades (reference §1.3): one TLS handshake per
 * protocol version, a CBC-only and an RSA-key-exchange-only handshake, the certificate, and the response
 * headers of the HTTPS page; for the domain, SPF/DMARC/CAA/MTA-STS/TLS-RPT records over DNS and DNSSEC.
 */
import { Resolver } from 'node:dns/promises';
import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { checkServerIdentity, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { connectTlsTo, type OutboundConnector, type VettedHost } from '../../platform/net/index.ts';
import type { DomainFacts } from './domain.grade.ts';
import { measureDnssec } from './dnssec.measure.ts';
import { TLS_PROTOCOLS, type NegotiatedSuite, type TlsFacts, type TlsProtocol } from './tls.grade.ts';

export interface MeasureOptions {
  /** Extra trusted CA (tests, private CAs), PEM. */
  ca?: string;
  timeoutMs: number;
  /** host:port of a DNS resolver; the system's when absent. */
  resolver?: string;
  /** Epoch ms, for expiry. */
  now: number;
  /**
   * Every connection goes through it: the graded host and its `mta-sts.` host are vetted against the network policy
   * and connected to at the vetted address only. Give a pinned one, so that one grading reaches one address per host.
   */
  connector: OutboundConnector;
}

interface Handshake {
  socket: TLSSocket;
  protocol: TlsProtocol;
  suite: NegotiatedSuite;
}

/** CBC suites (TLS 1.2): accepted ⇒ non-AEAD suites are offered. */
const CBC_SUITES =
  'ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES256-SHA:AES128-SHA:AES256-SHA';
/** Static-RSA key exchange suites: accepted ⇒ a suite without forward secrecy is offered. */
const RSA_KX_SUITES = 'AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA:AES256-SHA';

function suiteOf(socket: TLSSocket): NegotiatedSuite {
  const c = socket.getCipher();
  const name = c.standardName || c.name;
  const bits = /256|CHACHA20/i.test(name) ? 256 : /128/.test(name) ? 128 : /3DES|DES-CBC3/i.test(name) ? 112 : 0;
  const ephemeral = socket.getEphemeralKeyInfo();
  const tls13 = socket.getProtocol() === 'TLSv1.3';
  return {
    name,
    bits,
    aead: tls13 || /GCM|CHACHA20|CCM/i.test(name),
    forwardSecrecy:
      tls13 || (!!ephemeral && 'type' in ephemeral && (ephemeral.type === 'ECDH' || ephemeral.type === 'DH')),
  };
}

function handshake(
  vetted: VettedHost,
  host: string,
  port: number,
  o: MeasureOptions,
  settings: { minVersion?: TlsProtocol; maxVersion?: TlsProtocol; ciphers?: string },
): Promise<Handshake | null> {
  return new Promise((resolve) => {
    let socket: TLSSocket;
    try {
      socket = connectTlsTo(vetted, port, {
        servername: isIP(host) ? undefined : host,
        rejectUnauthorized: false,
        ...(o.ca ? { ca: o.ca } : {}),
        ...settings,
      });
    } catch {
      resolve(null); // e.g. a cipher list OpenSSL cannot offer
      return;
    }
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, o.timeoutMs);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      resolve({ socket, protocol: socket.getProtocol() as TlsProtocol, suite: suiteOf(socket) });
    });
    socket.once('error', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(null);
    });
  });
}

function certificateFacts(h: Handshake, host: string, now: number): TlsFacts['certificate'] {
  const cert = h.socket.getPeerCertificate(true) as DetailedPeerCertificate;
  const x509 = cert.raw ? new X509Certificate(cert.raw) : null;
  const authError = h.socket.authorizationError ? String(h.socket.authorizationError) : null;
  const keyType = cert.asn1Curve || cert.nistCurve ? 'EC' : cert.modulus ? 'RSA' : 'other';
  return {
    keyType,
    keyBits: cert.bits ?? 0,
    signatureAlgorithm:
      (x509 as (X509Certificate & { signatureAlgorithm?: string }) | null)?.signatureAlgorithm ?? null,
    trusted: h.socket.authorized || authError === 'ERR_TLS_CERT_ALTNAME_INVALID',
    hostnameMatch: checkServerIdentity(host, cert) === undefined,
    expired: Date.parse(cert.valid_to) <= now,
    notYetValid: Date.parse(cert.valid_from) > now,
    selfSigned: authError === 'DEPTH_ZERO_SELF_SIGNED_CERT' || authError === 'SELF_SIGNED_CERT_IN_CHAIN',
  };
}

/**
 * Response headers of `url` (lower-case names, values of a repeated header joined), redirects not followed; null
 * when unreachable or refused by the network policy.
 */
export async function fetchHeaders(
  url: string,
  o: MeasureOptions,
): Promise<{ status: number; headers: Record<string, string> } | null> {
  try {
    const res = await o.connector.fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(o.timeoutMs),
      tls: { rejectUnauthorized: false, ...(o.ca ? { ca: o.ca } : {}) },
    });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    await res.body?.cancel();
    return { status: res.status, headers };
  } catch {
    return null;
  }
}

function hstsMaxAge(value: string | undefined): number | null {
  const m = value ? /max-age\s*=\s*"?(\d+)/i.exec(value) : null;
  return m ? Number(m[1]) : null;
}

/** Measures the TLS facts of host:port; null when no handshake succeeds at all. */
export async function measureTls(
  host: string,
  port: number,
  o: MeasureOptions,
): Promise<{ facts: TlsFacts; headers: Record<string, string> | null } | null> {
  let vetted: VettedHost;
  try {
    vetted = await o.connector.vet(host);
  } catch {
    return null;
  }
  const protocols: TlsFacts['protocols'] = {};
  const suites: NegotiatedSuite[] = [];
  let best: Handshake | null = null;
  for (const version of TLS_PROTOCOLS) {
    const legacy = version === 'TLSv1' || version === 'TLSv1.1';
    // OpenSSL 3 refuses TLS 1.0/1.1 signatures at its default security level (reference §1.3).
    const h = await handshake(vetted, host, port, o, {
      minVersion: version,
      maxVersion: version,
      ...(legacy ? { ciphers: 'DEFAULT@SECLEVEL=0' } : {}),
    });
    protocols[version] = h !== null;
    if (!h) continue;
    suites.push(h.suite);
    // Versions ascend: the last successful handshake is the newest version, the one clients get.
    best?.socket.destroy();
    best = h;
  }
  // Certificate and key exchange come from the newest version's handshake.
  if (!best) return null;
  for (const [ciphers, label] of [
    [CBC_SUITES, 'cbc'],
    [RSA_KX_SUITES, 'rsa'],
  ] as const) {
    const h = await handshake(vetted, host, port, o, { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ciphers });
    if (h) {
      suites.push(label === 'rsa' ? { ...h.suite, forwardSecrecy: false } : h.suite);
      h.socket.destroy();
    }
  }
  const ephemeral = best.socket.getEphemeralKeyInfo();
  const certificate = certificateFacts(best, host, o.now);
  best.socket.destroy();
  const page = await fetchHeaders(`https://${host.includes(':') ? `[${host}]` : host}:${port}/`, o);
  return {
    facts: {
      protocols,
      suites,
      ephemeral:
        ephemeral && 'type' in ephemeral && (ephemeral.type === 'ECDH' || ephemeral.type === 'DH')
          ? { type: ephemeral.type, bits: ephemeral.size ?? 0 }
          : null,
      certificate,
      hstsMaxAge: hstsMaxAge(page?.headers['strict-transport-security']),
    },
    headers: page?.headers ?? null,
  };
}

async function txt(resolver: Resolver, name: string, prefix: RegExp): Promise<string | null | undefined> {
  try {
    const records = (await resolver.resolveTxt(name)).map((parts) => parts.join(''));
    return records.find((r) => prefix.test(r)) ?? null;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // No such name / no data: the record is absent. Anything else (timeout, refused): not measured.
    return code === 'ENOTFOUND' || code === 'ENODATA' ? null : undefined;
  }
}

/** DNS facts of a domain (the monitored host, without a leading www.); DNSSEC as dnssec.measure.ts says. */
export async function measureDomain(domain: string, o: MeasureOptions): Promise<DomainFacts> {
  const resolver = new Resolver({ timeout: o.timeoutMs, tries: 1 });
  if (o.resolver) resolver.setServers([o.resolver]);
  const facts: DomainFacts = {};
  const spf = await txt(resolver, domain, /^v=spf1\b/i);
  if (spf !== undefined) facts.spf = spf;
  const dmarc = await txt(resolver, `_dmarc.${domain}`, /^v=DMARC1\b/i);
  if (dmarc !== undefined) facts.dmarc = dmarc;
  const sts = await txt(resolver, `_mta-sts.${domain}`, /^v=STSv1\b/i);
  if (sts !== undefined) {
    let mode: 'enforce' | 'testing' | 'none' | null = null;
    if (sts) {
      const policy = await fetchPolicy(`https://mta-sts.${domain}/.well-known/mta-sts.txt`, o);
      const m = policy ? /^mode:\s*(enforce|testing|none)\s*$/m.exec(policy) : null;
      mode = (m?.[1] as 'enforce' | 'testing' | 'none' | undefined) ?? null;
    }
    facts.mtaSts = { record: sts !== null, mode };
  }
  const rpt = await txt(resolver, `_smtp._tls.${domain}`, /^v=TLSRPTv1\b/i);
  if (rpt !== undefined) facts.tlsRpt = rpt !== null && /rua=/i.test(rpt);
  try {
    facts.caa = (await resolver.resolveCaa(domain)).map((r) => {
      const [tag, value] = Object.entries(r).find(([k]) => k !== 'critical') ?? ['', ''];
      return `${r.critical} ${tag} "${String(value)}"`;
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') facts.caa = [];
  }
  const dnssec = await measureDnssec(domain, o);
  if (dnssec) {
    facts.dnssec = dnssec.status;
    facts.dnssecDetail = dnssec.detail;
  }
  return facts;
}

/**
 * The MTA-STS policy text (RFC 8461 §3.3: HTTPS with a valid certificate, no redirects followed, 200 only), at most
 * 64 KiB; null when it cannot be fetched or the host is refused by the network policy.
 */
async function fetchPolicy(url: string, o: MeasureOptions): Promise<string | null> {
  try {
    const res = await o.connector.fetch(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(o.timeoutMs),
      ...(o.ca ? { tls: { ca: o.ca } } : {}),
    });
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel();
      return null;
    }
    return await cappedText(res.body, 65_536);
  } catch {
    return null;
  }
}

async function cappedText(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      await reader.cancel();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8');
}
