/** gRPC probe: calls grpc.health.v1.Health/Check on a fresh channel. SERVING is up. */
import { credentials, status as grpcStatus, type Client, type ServiceError } from '@grpc/grpc-js';
import { isIP } from 'node:net';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget, ProbeTimings } from '../probe.contract.ts';
import { classifyError, downObservation, num, parseHostPort, resolveHost, round } from '../probe.net.ts';
import { loadHealthDefinition, type HealthDefinition, type ServingStatus } from './grpc.health.ts';

type CheckFn = (
  req: { service: string },
  options: Record<string, unknown>,
  cb: (err: ServiceError | null, res?: { status: ServingStatus }) => void,
) => { cancel(): void };

export function createGrpcProbe(): Probe {
  let definition: HealthDefinition | undefined;

  return async function grpcProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
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
    const useTls = target.config.tls === true;
    const service = typeof target.config.service === 'string' ? target.config.service : '';
    let client: Client | undefined;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    let timedOut = false;
    try {
      const { host, port } = parseHostPort(target.target, useTls ? 443 : 80);
      const resolved = await Promise.race([
        resolveHost(host, ctx, timings),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(Object.assign(new Error(`no DNS answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })),
            timeoutMs,
          );
        }),
      ]);
      clearTimeout(timer);
      timings.dns_ms = resolved.dns_ms;
      definition ??= loadHealthDefinition();
      const address = resolved.family === 6 ? `[${resolved.address}]:${port}` : `${resolved.address}:${port}`;
      const hostname = isIP(host) ? null : host;
      const creds = useTls
        ? credentials.createSsl(ctx.tlsCa ? Buffer.from(ctx.tlsCa) : null)
        : credentials.createInsecure();
      const options: Record<string, string | number> = {
        'grpc.enable_retries': 0,
        'grpc.max_receive_message_length': 64 * 1024,
      };
      if (hostname) {
        options['grpc.default_authority'] = `${hostname}:${port}`;
        if (useTls) options['grpc.ssl_target_name_override'] = hostname;
      }
      client = new definition.Health(address, creds, options);
      const check = (client as unknown as { Check: CheckFn }).Check.bind(client);
      const result = await new Promise<{ err: ServiceError | null; status?: ServingStatus }>((resolve) => {
        const call = check({ service }, {}, (err, res) => resolve({ err, status: res?.status }));
        const remaining = Math.max(1, timeoutMs - (performance.now() - t0));
        timer = setTimeout(() => {
          timedOut = true;
          call.cancel();
        }, remaining);
        onAbort = () => {
          timedOut = true;
          call.cancel();
        };
        if (ctx.signal?.aborted) onAbort();
        else ctx.signal?.addEventListener('abort', onAbort, { once: true });
      });
      const total_ms = round(performance.now() - t0);
      timings.total_ms = total_ms;
      timings.ttfb_ms = round(performance.now() - t0 - (timings.dns_ms ?? 0));
      let error: ProbeError | null = null;
      let serving_status: ServingStatus | null = result.status ?? null;
      if (result.err) {
        const e = result.err;
        if (timedOut || e.code === grpcStatus.DEADLINE_EXCEEDED)
          error = { code: 'timeout', message: `no health answer within ${timeoutMs} ms` };
        else if (e.code === grpcStatus.NOT_FOUND) {
          serving_status = 'SERVICE_UNKNOWN';
          error = {
            code: 'grpc_not_serving',
            message: `service ${JSON.stringify(service)} is unknown to the health server`,
          };
        } else error = { code: 'grpc_error', message: `${grpcStatus[e.code] ?? e.code}: ${e.details || e.message}` };
      } else if (serving_status !== 'SERVING') {
        error = { code: 'grpc_not_serving', message: `health status ${serving_status ?? 'missing'}` };
      }
      return {
        status: error ? 'down' : 'up',
        started_at,
        duration_ms: total_ms,
        timings,
        http_status: null,
        assertions: [],
        error,
        details: { serving_status, service },
      };
    } catch (err) {
      const obs = downObservation(started_at, t0, classifyError(err));
      timings.total_ms = obs.duration_ms;
      obs.timings = timings;
      return obs;
    } finally {
      if (timer) clearTimeout(timer);
      if (onAbort) ctx.signal?.removeEventListener('abort', onAbort);
      client?.close();
    }
  };
}
