/**
 * UDP probe: sends one datagram (`config.send`, text, or bytes given as base64/hex by `config.send_encoding`) from a
 * socket connected to the target's vetted address and waits for the first reply. Up when a reply arrives, contains
 * `config.expect` (when given) and passes the `body`/`response_time` assertions. Down on no reply within the
 * timeout (`timeout`), on an ICMP port unreachable (a connected UDP socket reports it as ECONNREFUSED:
 * `connect_refused`), or on a reply that does not match (`unexpected_response`).
 *
 * The reply is read as UTF-8 for `expect` and the assertions (bytes that are not UTF-8 read as U+FFFD); its first
 * bytes are kept in hex in the details for binary protocols.
 */
import { createSocket, type Socket } from 'node:dgram';
import { evaluateAssertions } from '../../assertions/index.ts';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { num, ProbeFailure, parseHostPort, resolveHost, round } from '../probe.net.ts';
import { runProbeWithin, type Outcome } from '../probe.run.ts';

export const UDP_SEND_ENCODINGS = ['text', 'base64', 'hex'] as const;
const EXCERPT_CHARS = 200;
const HEX_BYTES = 64;

/** The datagram a monitor sends. */
export function payloadOf(config: Record<string, unknown>): Buffer {
  const send = typeof config.send === 'string' ? config.send : '';
  switch (config.send_encoding) {
    case 'base64':
      return Buffer.from(send, 'base64');
    case 'hex':
      return Buffer.from(send.replace(/\s+/g, ''), 'hex');
    default:
      return Buffer.from(send, 'utf8');
  }
}

export function createUdpProbe(): Probe {
  return function udpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const cfg = target.config;
    const timeoutMs = num(cfg.timeout_ms, 10_000);
    let socket: Socket | undefined;
    return runProbeWithin(ctx, { timeoutMs, timeoutMessage: `no UDP reply within ${timeoutMs} ms` }, async (run) => {
      try {
        const { host, port } = parseHostPort(target.target);
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        const payload = payloadOf(cfg);
        const tStart = performance.now();
        let tSent = 0;
        const reply = await run.race(
          new Promise<Buffer>((resolve, reject) => {
            const s = createSocket(vetted.family === 6 ? 'udp6' : 'udp4');
            socket = s;
            s.on('error', reject);
            s.once('message', (msg) => resolve(msg));
            s.connect(port, vetted.address, () => {
              run.timings.connect_ms = round(performance.now() - tStart);
              tSent = performance.now();
              s.send(payload, (err) => {
                if (err) reject(err);
              });
            });
          }),
        );
        run.timings.ttfb_ms = round(performance.now() - tSent);
        const duration_ms = run.elapsed();
        return run.observation({
          ...judge(reply, cfg, duration_ms),
          details: {
            remote_address: vetted.address,
            sent_bytes: payload.length,
            reply_bytes: reply.length,
            reply_excerpt: excerpt(reply.toString('utf8')),
            reply_hex: reply.subarray(0, HEX_BYTES).toString('hex'),
          },
          duration_ms,
        });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED' && !run.abortReason)
          throw new ProbeFailure('connect_refused', `${target.target} answered ICMP port unreachable`);
        throw err;
      } finally {
        socket?.close();
      }
    });
  };
}

function excerpt(text: string): string {
  return text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text;
}

function judge(reply: Buffer, cfg: Record<string, unknown>, duration_ms: number): Outcome {
  const text = reply.toString('utf8');
  const assertions = Array.isArray(cfg.assertions)
    ? evaluateAssertions(cfg.assertions as object[], { status: 0, headers: {}, body: text, duration_ms })
    : [];
  let error: ProbeError | null = null;
  if (typeof cfg.expect === 'string' && cfg.expect !== '' && !text.includes(cfg.expect)) {
    error = {
      code: 'unexpected_response',
      message: `reply ${JSON.stringify(excerpt(text))} does not contain ${JSON.stringify(cfg.expect)}`,
    };
  } else if (assertions.some((a) => !a.passed)) {
    const failed = assertions.filter((a) => !a.passed).map((a) => a.type);
    error = { code: 'assertion_failed', message: `assertions failed: ${failed.join(', ')}` };
  }
  return { error, assertions };
}
