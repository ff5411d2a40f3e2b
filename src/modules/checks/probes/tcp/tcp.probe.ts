/** TCP probe: up when a connection to host:port is established within the timeout. */
import { connect, type Socket } from 'node:net';
import type { Observation, Probe, ProbeContext, ProbeTarget, ProbeTimings } from '../probe.contract.ts';
import { classifyError, downObservation, num, ProbeFailure, parseHostPort, resolveHost, round } from '../probe.net.ts';

export function createTcpProbe(): Probe {
  return async function tcpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
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
    let socket: Socket | undefined;
    let timer: NodeJS.Timeout | undefined;
    let failNow: ((e: Error) => void) | undefined;
    const onAbort = (): void => failNow?.(new ProbeFailure('timeout', 'check aborted'));
    try {
      const { host, port } = parseHostPort(target.target);
      const deadline = new Promise<never>((_, reject) => {
        failNow = reject;
        timer = setTimeout(
          () => reject(new ProbeFailure('timeout', `no connection within ${timeoutMs} ms`)),
          timeoutMs,
        );
      });
      deadline.catch(() => undefined);
      if (ctx.signal?.aborted) onAbort();
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      const resolved = await Promise.race([resolveHost(host, ctx, timings), deadline]);
      timings.dns_ms = resolved.dns_ms;
      const tStart = performance.now();
      const remote_address = await Promise.race([
        new Promise<string | null>((resolve, reject) => {
          const s = connect({ host: resolved.address, port });
          socket = s;
          s.once('connect', () => resolve(s.remoteAddress ?? null));
          s.on('error', reject);
        }),
        deadline,
      ]);
      timings.connect_ms = round(performance.now() - tStart);
      const total_ms = round(performance.now() - t0);
      timings.total_ms = total_ms;
      return {
        status: 'up',
        started_at,
        duration_ms: total_ms,
        timings,
        http_status: null,
        assertions: [],
        error: null,
        details: { remote_address },
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
