/**
 * SMTP probe (DECISIONS §20): connect to the vetted address (TLS at once for `tls_mode: implicit`, port 465 by
 * default) → the 220 banner → EHLO → for `tls_mode: starttls`, STARTTLS and the handshake → QUIT. The certificate of
 * either TLS mode is judged like the tls type's (validity, chain, name, `cert_expiring`). Timings: `connect_ms`,
 * `tls_ms` (the handshake), `ttfb_ms` (connected → banner), `download_ms` (the EHLO exchange).
 */
import { isIP, type Socket } from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import { connectTcpTo, connectTlsTo, startTlsOn, type VettedHost } from '../../../../platform/net/index.ts';
import { evaluateAssertions } from '../../assertions/index.ts';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { num, ProbeFailure, parseHostPort, resolveHost, round } from '../probe.net.ts';
import { runProbeWithin, type Outcome, type ProbeRun } from '../probe.run.ts';
import { createSecureContextCache, type SecureContextFor } from '../secure-context.cache.ts';
import { judgeCertificate } from '../tls/tls.probe.ts';
import { replyText, SmtpReplyReader, type SmtpReply } from './smtp.replies.ts';

export const SMTP_TLS_MODES = ['none', 'starttls', 'implicit'] as const;
type TlsMode = (typeof SMTP_TLS_MODES)[number];
/** The name the probe gives in EHLO: servers accept it, and it says nothing about where the check runs. */
const EHLO_NAME = 'localhost';

interface SmtpConfig {
  tlsMode: TlsMode;
  timeoutMs: number;
  verify: boolean;
  ca: string | null;
  alertDays: number;
  assertions: Array<Record<string, unknown>>;
}

function readConfig(c: Record<string, unknown>): SmtpConfig {
  return {
    tlsMode: (SMTP_TLS_MODES as readonly unknown[]).includes(c.tls_mode) ? (c.tls_mode as TlsMode) : 'none',
    timeoutMs: num(c.timeout_ms, 10_000),
    verify: c.verify_tls !== false,
    ca: typeof c.ca_certificate === 'string' ? c.ca_certificate : null,
    alertDays: typeof c.alert_days_before_expiry === 'number' ? c.alert_days_before_expiry : 14,
    assertions: Array.isArray(c.assertions) ? (c.assertions as Array<Record<string, unknown>>) : [],
  };
}

/** What a failure in this phase is called when the timeout cuts it (phases in order). */
type Phase = 'connection' | 'TLS handshake' | 'banner' | 'EHLO reply' | 'STARTTLS reply';

export function createSmtpProbe(secureContextFor: SecureContextFor = createSecureContextCache()): Probe {
  return function smtpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const cfg = readConfig(target.config);
    let phase: Phase = 'connection';
    let socket: Socket | undefined;
    const reader = new SmtpReplyReader();
    // Read when the timeout fires: the message names the phase the server left unanswered.
    const options = {
      timeoutMs: cfg.timeoutMs,
      get timeoutMessage() {
        return `no ${phase} within ${cfg.timeoutMs} ms`;
      },
    };
    return runProbeWithin(ctx, options, async (run) => {
      try {
        const { host, port } = parseHostPort(target.target, cfg.tlsMode === 'implicit' ? 465 : 25);
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        const secureContext = cfg.tlsMode === 'none' ? undefined : secureContextFor([ctx.tlsCa, cfg.ca]);
        const tlsOptions = (): TlsOptions => ({ host, secureContext, run });
        const details: Record<string, unknown> = { tls_mode: cfg.tlsMode };
        run.partial.details = details;

        if (cfg.tlsMode === 'implicit') {
          phase = 'TLS handshake';
          socket = await run.race(openTls(vetted, port, tlsOptions()));
        } else socket = await run.race(openTcp(vetted, port, run));
        details.remote_address = socket.remoteAddress ?? null;
        reader.attach(socket);

        phase = 'banner';
        const tBanner = performance.now();
        const banner = await run.race(reader.next());
        run.timings.ttfb_ms = round(performance.now() - tBanner);
        details.banner = banner.lines.join('\n').slice(0, 512);
        if (banner.code !== 220) throw replyFailure('banner', banner);

        phase = 'EHLO reply';
        const tEhlo = performance.now();
        socket.write(`EHLO ${EHLO_NAME}\r\n`);
        const ehlo = await run.race(reader.next());
        run.timings.download_ms = round(performance.now() - tEhlo);
        if (ehlo.code !== 250) throw replyFailure('EHLO', ehlo);
        const extensions = ehlo.lines.slice(1).map((l) => l.split(' ')[0]!.toUpperCase());
        details.extensions = extensions;
        details.starttls_offered = extensions.includes('STARTTLS');

        if (cfg.tlsMode === 'starttls') {
          if (!extensions.includes('STARTTLS'))
            throw new ProbeFailure('starttls_unavailable', 'the server does not offer STARTTLS in its EHLO reply');
          phase = 'STARTTLS reply';
          socket.write('STARTTLS\r\n');
          const ready = await run.race(reader.next());
          if (ready.code !== 220) throw replyFailure('STARTTLS', ready);
          reader.detach();
          phase = 'TLS handshake';
          socket = await run.race(upgrade(socket, tlsOptions()));
        }

        // QUIT is said, not waited for: the server's 221 tells nothing the check needs.
        socket.end('QUIT\r\n');
        const duration_ms = run.elapsed();
        const outcome: Outcome = { error: null, details, duration_ms };
        if (cfg.tlsMode !== 'none') {
          const judged = judgeCertificate(
            { socket: socket as TLSSocket, cert: (socket as TLSSocket).getPeerCertificate(true) },
            host,
            ctx.now(),
            { alertDays: cfg.alertDays, verify: cfg.verify },
          );
          details.certificate = judged.details;
          outcome.error = judged.error;
          outcome.events = judged.events;
        }
        const asserted = assertionsOf(cfg, details.banner as string, duration_ms);
        outcome.assertions = asserted.assertions;
        outcome.error ??= asserted.error;
        return run.observation(outcome);
      } finally {
        reader.detach();
        socket?.destroy();
      }
    });
  };
}

interface TlsOptions {
  host: string;
  secureContext: SecureContext | undefined;
  run: ProbeRun;
}

function openTcp(vetted: VettedHost, port: number, run: ProbeRun): Promise<Socket> {
  const tStart = performance.now();
  return new Promise<Socket>((resolve, reject) => {
    const s = connectTcpTo(vetted, port);
    run.onAbort(() => s.destroy());
    s.once('connect', () => {
      run.timings.connect_ms = round(performance.now() - tStart);
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

/** Implicit TLS: certificates are judged after the handshake (never rejected by it), like the tls probe does. */
function openTls(vetted: VettedHost, port: number, { host, secureContext, run }: TlsOptions): Promise<TLSSocket> {
  const tStart = performance.now();
  let tConnect = 0;
  return new Promise<TLSSocket>((resolve, reject) => {
    const s = connectTlsTo(vetted, port, {
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: false,
      secureContext,
    });
    run.onAbort(() => s.destroy());
    s.once('connect', () => {
      tConnect = performance.now();
      run.timings.connect_ms = round(tConnect - tStart);
    });
    s.once('secureConnect', () => {
      run.timings.tls_ms = round(performance.now() - (tConnect || tStart));
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

function upgrade(plain: Socket, { host, secureContext, run }: TlsOptions): Promise<TLSSocket> {
  const tStart = performance.now();
  return new Promise<TLSSocket>((resolve, reject) => {
    const s = startTlsOn(plain, {
      servername: isIP(host) ? undefined : host,
      rejectUnauthorized: false,
      secureContext,
    });
    run.onAbort(() => s.destroy());
    s.once('secureConnect', () => {
      run.timings.tls_ms = round(performance.now() - tStart);
      s.off('error', reject);
      resolve(s);
    });
    s.once('error', reject);
  });
}

function replyFailure(step: string, reply: SmtpReply): ProbeFailure {
  return new ProbeFailure('smtp_reply', `${step} answered ${replyText(reply)}`);
}

/** `response_time`, and `body` assertions read the banner (DECISIONS §20: the common assertions that apply). */
function assertionsOf(
  cfg: SmtpConfig,
  banner: string,
  duration_ms: number,
): { assertions: Observation['assertions']; error: ProbeError | null } {
  if (cfg.assertions.length === 0) return { assertions: [], error: null };
  const assertions = evaluateAssertions(cfg.assertions, { status: 220, headers: {}, body: banner, duration_ms });
  const failed = assertions.find((a) => !a.passed);
  return {
    assertions,
    error: failed
      ? {
          code: 'assertion_failed',
          message: `${failed.type} assertion failed (actual: ${JSON.stringify(failed.actual)})`,
        }
      : null,
  };
}
