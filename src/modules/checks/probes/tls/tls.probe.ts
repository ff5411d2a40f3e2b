/**
 * TLS certificate probe: connects, inspects the peer certificate (validity, chain, hostname, expiry)
 * without rejecting, and reports what it found. An expiring (still valid) certificate stays up and
 * emits a `cert_expiring` event.
 */
import { isIP } from 'node:net';
import {
  checkServerIdentity,
  connect,
  type DetailedPeerCertificate,
  type PeerCertificate,
  type TLSSocket,
} from 'node:tls';
import type {
  CertExpiringEvent,
  Observation,
  Probe,
  ProbeContext,
  ProbeTarget,
  ProbeTimings,
} from '../probe.contract.ts';
import {
  classifyError,
  createSecureContextCache,
  downObservation,
  num,
  ProbeFailure,
  parseHostPort,
  resolveHost,
  round,
} from '../probe.net.ts';

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

interface Handshake {
  socket: TLSSocket;
  cert: DetailedPeerCertificate;
}

export function createTlsProbe(): Probe {
  const secureContextFor = createSecureContextCache();

  return async function tlsProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
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
    const timeoutMs = num(target.config.timeout_ms, 10_000);
    const alertDays =
      typeof target.config.alert_days_before_expiry === 'number' ? target.config.alert_days_before_expiry : 14;
    let socket: TLSSocket | undefined;
    let timer: NodeJS.Timeout | undefined;
    let failNow: ((e: Error) => void) | undefined;
    const onAbort = (): void => failNow?.(new ProbeFailure('timeout', 'check aborted'));
    try {
      const { host, port } = parseHostPort(target.target, 443, true);
      const deadline = new Promise<never>((_, reject) => {
        failNow = reject;
        timer = setTimeout(
          () => reject(new ProbeFailure('timeout', `no TLS handshake within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      deadline.catch(() => undefined);
      if (ctx.signal?.aborted) onAbort();
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      const resolved = await Promise.race([resolveHost(host, ctx, timings), deadline]);
      timings.dns_ms = resolved.dns_ms;
      const tStart = performance.now();
      let tConnect = 0;
      const handshake = new Promise<Handshake>((resolve, reject) => {
        const s = connect({
          host: resolved.address,
          port,
          ...(isIP(host) ? {} : { servername: host }),
          rejectUnauthorized: false,
          ...(ctx.tlsCa ? { secureContext: secureContextFor(ctx.tlsCa) } : {}),
        });
        socket = s;
        s.once('connect', () => {
          tConnect = performance.now();
          timings.connect_ms = round(tConnect - tStart);
        });
        s.once('secureConnect', () => {
          timings.tls_ms = round(performance.now() - (tConnect || tStart));
          resolve({ socket: s, cert: s.getPeerCertificate(true) });
        });
        s.on('error', reject);
      });
      const { socket: s, cert } = await Promise.race([handshake, deadline]);
      if (!cert || !cert.valid_to) throw new ProbeFailure('tls_invalid', 'the server presented no certificate');
      const now = ctx.now();
      const validFrom = Date.parse(cert.valid_from);
      const validTo = Date.parse(cert.valid_to);
      const days_to_expiry = Math.floor((validTo - now) / DAY_MS);
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
      const total_ms = round(performance.now() - t0);
      timings.total_ms = total_ms;
      let error: Observation['error'] = null;
      if (authError === 'CERT_HAS_EXPIRED' || validTo <= now)
        error = { code: 'tls_expired', message: `certificate expired on ${details.valid_to as string}` };
      else if (validFrom > now || !chainValid)
        error = { code: 'tls_invalid', message: `certificate not trusted: ${authError ?? 'not yet valid'}` };
      else if (hostnameError) error = { code: 'tls_hostname_mismatch', message: hostnameError.message };
      const events: CertExpiringEvent[] = [];
      if (!error && days_to_expiry <= alertDays) {
        events.push({ type: 'cert_expiring', data: { days_to_expiry, valid_to: details.valid_to, subject } });
      }
      return {
        status: error ? 'down' : 'up',
        started_at,
        duration_ms: total_ms,
        timings,
        http_status: null,
        assertions: [],
        error,
        details,
        ...(events.length ? { events } : {}),
      };
    } catch (err) {
      const obs = downObservation(started_at, t0, classifyError(err));
      timings.total_ms = obs.duration_ms;
      obs.timings = timings;
      return obs;
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onAbort);
      socket?.destroy();
    }
  };
}
