/**
 * gRPC probe: calls grpc.health.v1.Health/Check on a fresh channel (SERVING is up), or, when `config.method` is
 * set, that unary method (grpc.method.ts).
 */
import { credentials, Metadata, status as grpcStatus, type Client, type ServiceError } from '@grpc/grpc-js';
import { isIP } from 'node:net';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { grpcTargetOf, type VettedHost } from '../../../../platform/net/index.ts';
import { num, parseHostPort, resolveHost, round } from '../probe.net.ts';
import { runProbeWithin, type Outcome } from '../probe.run.ts';
import { loadHealthDefinition, type HealthDefinition, type ServingStatus } from './grpc.health.ts';
import { createGrpcMethodCaller, type MethodCall } from './grpc.method.ts';

type CheckFn = (
  req: { service: string },
  metadata: Metadata,
  options: Record<string, unknown>,
  cb: (err: ServiceError | null, res?: { status: ServingStatus }) => void,
) => { cancel(): void };

/** The method call a monitor's config asks for, or null for the health check. */
function methodCallOf(config: Record<string, unknown>): MethodCall | null {
  if (typeof config.method !== 'string' || config.method === '') return null;
  return {
    method: config.method,
    request: (config.request as Record<string, unknown> | null | undefined) ?? {},
    metadata: metadataOf(config),
    expectedStatus: typeof config.expected_status === 'string' ? config.expected_status : 'OK',
    assertions: (config.assertions as Array<Record<string, unknown>> | null | undefined) ?? [],
  };
}

function metadataOf(config: Record<string, unknown>): Record<string, string> {
  return (config.metadata as Record<string, string> | null | undefined) ?? {};
}

export function createGrpcProbe(): Probe {
  let definition: HealthDefinition | undefined;
  const callMethod = createGrpcMethodCaller();

  /** A fresh channel to the vetted address that still names the host (authority, TLS server name). */
  function clientFor(vetted: VettedHost, host: string, port: number, useTls: boolean, ctx: ProbeContext) {
    definition ??= loadHealthDefinition();
    const creds = useTls
      ? credentials.createSsl(ctx.tlsCa ? Buffer.from(ctx.tlsCa) : null)
      : credentials.createInsecure();
    const options: Record<string, string | number> = {
      'grpc.enable_retries': 0,
      'grpc.max_receive_message_length': 64 * 1024,
    };
    if (!isIP(host)) {
      options['grpc.default_authority'] = `${host}:${port}`;
      if (useTls) options['grpc.ssl_target_name_override'] = host;
    }
    return new definition.Health(grpcTargetOf(vetted, port), creds, options);
  }

  return function grpcProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const timeoutMs = num(target.config.timeout_ms, 10_000);
    const useTls = target.config.tls === true;
    const service = typeof target.config.service === 'string' ? target.config.service : '';
    let client: Client | undefined;
    const timeoutMessage = `no health answer within ${timeoutMs} ms`;
    return runProbeWithin(ctx, { timeoutMs, timeoutMessage }, async (run) => {
      try {
        const { host, port } = parseHostPort(target.target, useTls ? 443 : 80);
        const vetted = await run.race(resolveHost(host, ctx, run.timings));
        const methodCall = methodCallOf(target.config);
        if (methodCall) {
          const endpoint = { vetted, host, port, tls: useTls, ca: ctx.tlsCa };
          const outcome = await callMethod(endpoint, methodCall, timeoutMs, run);
          run.timings.ttfb_ms = round(run.elapsed() - (run.timings.dns_ms ?? 0));
          return run.observation(outcome);
        }
        client = clientFor(vetted, host, port, useTls, ctx);
        const check = (client as unknown as { Check: CheckFn }).Check.bind(client);
        const result = await new Promise<{ err: ServiceError | null; status?: ServingStatus }>((resolve) => {
          const metadata = new Metadata();
          for (const [key, value] of Object.entries(metadataOf(target.config))) metadata.set(key, value);
          const call = check({ service }, metadata, {}, (err, res) => resolve({ err, status: res?.status }));
          run.onAbort(() => call.cancel());
        });
        // A call cancelled by the timeout or the check's abort fails as that (runProbeWithin reads the reason).
        if (run.abortReason) throw run.abortReason;
        run.timings.ttfb_ms = round(run.elapsed() - (run.timings.dns_ms ?? 0));
        return run.observation(healthVerdict(result, service, timeoutMs));
      } finally {
        client?.close();
      }
    });
  };
}

function healthVerdict(
  result: { err: ServiceError | null; status?: ServingStatus },
  service: string,
  timeoutMs: number,
): Outcome {
  let error: ProbeError | null = null;
  let serving_status: ServingStatus | null = result.status ?? null;
  if (result.err) {
    const e = result.err;
    if (e.code === grpcStatus.DEADLINE_EXCEEDED)
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
  return { error, details: { serving_status, service } };
}
