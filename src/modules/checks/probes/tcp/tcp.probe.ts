/** TCP probe: up when a connection to host:port is established within the timeout. */
import type { Socket } from 'node:net';
import { connectTcpTo } from '../../../../platform/net/index.ts';
import type { Observation, Probe, ProbeContext, ProbeTarget } from '../probe.contract.ts';
import { num, parseHostPort, resolveHost, round } from '../probe.net.ts';
import { runProbeWithin } from '../probe.run.ts';

export function createTcpProbe(): Probe {
  return function tcpProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const timeoutMs = num(target.config.timeout_ms, 10_000);
    let socket: Socket | undefined;
    return runProbeWithin(ctx, { timeoutMs, timeoutMessage: `no connection within ${timeoutMs} ms` }, async (run) => {
      try {
        const { host, port } = parseHostPort(target.target);
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        const tStart = performance.now();
        const remote_address = await run.race(
          new Promise<string | null>((resolve, reject) => {
            const s = connectTcpTo(vetted, port);
            socket = s;
            s.once('connect', () => resolve(s.remoteAddress ?? null));
            s.on('error', reject);
          }),
        );
        run.timings.connect_ms = round(performance.now() - tStart);
        return run.observation({ error: null, details: { remote_address } });
      } finally {
        socket?.destroy();
      }
    });
  };
}
