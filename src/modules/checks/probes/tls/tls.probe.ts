/**
 * TLS certificate probe: connects, inspects the peer certificate (validity, chain, hostname, expiry)
 * without rejecting, and reports what it found. An expiring (still valid) certificate stays up and
 * emits a `cert_expiring` event. `config.ca_certificate` adds trusted CAs; with `config.verify_tls: false`
 * an untrusted chain or another host name is reported but is no failure (dates still are: expiry is what a
 * tls monitor watches).
 */
import { isIP } from 'node:net';
import {
  checkServerIdentity,
  type DetailedPeerCertificate,
  type PeerCertificate,
  type SecureContext,
  type TLSSocket,
} from 'node:tls';
import { connectTlsTo, type VettedHost } from '../../../../platform/net/index.ts';
import type { CertExpiringEvent, Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { num, ProbeFailure, parseHostPort, resolveHost, round } from '../probe.net.ts';
import { createSecureContextCache, type SecureContextFor } from '../secure-context.cache.ts';
import { runProbeWithin, type Outcome, type ProbeRun } from '../probe.run.ts';

const DAY_MS = 86_400_000;

function nameOf(entity: PeerCertificate['subject'] | undefined): string | null {
  if (!entity) return null;
  const e = entity as unknown as Record<string, string | string[] | undefined>;
  const pick = (k: string): string | undefined => {
    const v = e[k];
    return Array.isArray(v) ? v[0] : v;
  };
  return (
    pick('CN') ??
    pick('O') ??
    (Object.keys(e).length
      ? Object.entries(e)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ')
      : null)
  );
}

function parseSan(san: string | undefined): string[] {
  if (!san) return [];
  return san
    .split(/,\s*/)
    .map((s) => s.replace(/^(DNS|IP Address|URI|email):/, ''))
    .filter(Boolean);
}

export interface Handshake {
  socket: TLSSocket;
  cert: DetailedPeerCertificate;
}

/** `secureContextFor`: the registry's cache, shared with the http probe (monitors of one CA share a context). */
export function createTlsProbe(secureContextFor: SecureContextFor = createSecureContextCache()): Probe {
  /** Connects to the vetted address with the target's name as SNI and waits for the handshake (never rejects a
   *  certificate: the probe judges it). */
  function handshake(
    vetted: VettedHost,
    host: string,
    port: number,
    run: ProbeRun,
    secureContext: SecureContext | undefined,
  ): Promise<Handshake> {
    const tStart = performance.now();
    let tConnect = 0;
    return new Promise<Handshake>((resolve, reject) => {
      const s = connectTlsTo(vetted, port, {
        servername: isIP(host) ? undefined : host,
        rejectUnauthorized: false,
        secureContext,
      });
      s.once('connect', () => {
        tConnect = performance.now();
        run.timings.connect_ms = round(tConnect - tStart);
      });
      s.once('secureConnect', () => {
        run.timings.tls_ms = round(performance.now() - (tConnect || tStart));
        resolve({ socket: s, cert: s.getPeerCertificate(true) });
      });
      s.on('error', (err: Error) => {
        s.destroy();
        reject(err);
      });
      run.onAbort(() => s.destroy());
    });
  }

  return function tlsProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const timeoutMs = num(target.config.timeout_ms, 10_000);
    const alertDays =
      typeof target.config.alert_days_before_expiry === 'number' ? target.config.alert_days_before_expiry : 14;
    const verify = target.config.verify_tls !== false;
    const monitorCa = typeof target.config.ca_certificate === 'string' ? target.config.ca_certificate : null;
    let socket: TLSSocket | undefined;
    const timeoutMessage = `no TLS handshake within ${timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs, timeoutMessage }, async (run) => {
      try {
        const { host, port } = parseHostPort(target.target, 443, true);
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        const secureContext = secureContextFor([ctx.tlsCa, monitorCa]);
        const shaken = await run.race(handshake(vetted, host, port, run, secureContext));
        socket = shaken.socket;
        return run.observation(judgeCertificate(shaken, host, ctx.now(), { alertDays, verify }));
      } finally {
        socket?.destroy();
      }
    });
  };
}

export interface Judging {
  alertDays: number;
  /** False: an untrusted chain or a host name mismatch is reported in the details but is not an error. */
  verify: boolean;
}

/**
 * What the certificate says: validity, chain, hostname, expiry, and a `cert_expiring` event when it is due. The smtp
 * probe judges its STARTTLS / implicit-TLS certificate with this too.
 */
export function judgeCertificate(
  { socket: s, cert }: Handshake,
  host: string,
  now: number,
  { alertDays, verify }: Judging,
): Outcome {
  if (!cert || !cert.valid_to) throw new ProbeFailure('tls_invalid', 'the server presented no certificate');
  const validFrom = Date.parse(cert.valid_from);
  const validTo = Date.parse(cert.valid_to);
  // Rounded up, like a countdown: 4.99 days left is "5 days", never fewer days than remain; and `≤ alertDays` then
  // means "expires within alert_days_before_expiry days" exactly (a floor would warn up to a day early).
  const days_to_expiry = Math.ceil((validTo - now) / DAY_MS);
  const hostnameError = checkServerIdentity(host, cert);
  // With rejectUnauthorized:false Node still verifies: a chain error, or (chain fine) the hostname error.
  const rawAuthError = s.authorizationError ? String(s.authorizationError) : null;
  const authError = rawAuthError === 'ERR_TLS_CERT_ALTNAME_INVALID' ? null : rawAuthError;
  const chainValid = authError === null;
  const subject = nameOf(cert.subject);
  const details: Record<string, unknown> = {
    valid_from: new Date(validFrom).toISOString(),
    valid_to: new Date(validTo).toISOString(),
    days_to_expiry,
    issuer: nameOf(cert.issuer),
    subject,
    fingerprint_sha256: cert.fingerprint256,
    san: parseSan(cert.subjectaltname),
    hostname_match: hostnameError === undefined,
    chain_valid: chainValid,
    authorization_error: authError,
    protocol: s.getProtocol(),
  };
  let error: Observation['error'] = null;
  if (authError === 'CERT_HAS_EXPIRED' || validTo <= now)
    error = { code: 'tls_expired', message: `certificate expired on ${details.valid_to as string}` };
  else if (validFrom > now)
    error = { code: 'tls_invalid', message: `certificate not valid before ${details.valid_from as string}` };
  else if (verify && authError !== null)
    error = { code: 'tls_invalid', message: `certificate not trusted: ${authError}` };
  else if (verify && hostnameError) error = { code: 'tls_hostname_mismatch', message: hostnameError.message };
  const events: CertExpiringEvent[] = [];
  if (!error && days_to_expiry <= alertDays) {
    events.push({ type: 'cert_expiring', data: { days_to_expiry, valid_to: details.valid_to, subject } });
  }
  return { error, details, events };
}
