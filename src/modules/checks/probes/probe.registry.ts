/** The only place that imports the probe implementations. */
import type { Observation, Probe, ProbeContext, ProbeTarget, ProbeType } from './probe.contract.ts';
import { PROBE_TYPES } from './probe.contract.ts';
import { classifyError, downObservation } from './probe.net.ts';
import { createDnsProbe } from './dns/dns.probe.ts';
import { createDomainProbe } from './domain/domain.probe.ts';
import { createGrpcProbe } from './grpc/grpc.probe.ts';
import { createHeartbeatProbe } from './heartbeat/heartbeat.probe.ts';
import { createHttpProbe } from './http/http.probe.ts';
import { createIcmpProbe } from './icmp/icmp.probe.ts';
import { createTcpProbe } from './tcp/tcp.probe.ts';
import { createSecureContextCache } from './secure-context.cache.ts';
import { createTlsProbe } from './tls/tls.probe.ts';
import { createUdpProbe } from './udp/udp.probe.ts';
import { createSmtpProbe } from './smtp/smtp.probe.ts';
import { createWebsocketProbe } from './websocket/websocket.probe.ts';
import { createPostgresProbe } from './postgres/postgres.probe.ts';
import { createMysqlProbe } from './mysql/mysql.probe.ts';
import { createRedisProbe } from './redis/redis.probe.ts';

export interface ProbeRegistry {
  readonly types: readonly ProbeType[];
  get(type: string): Probe | undefined;
  /** Runs the probe for `target.type`; never throws (an unknown type is `invalid_target`, a crash is `protocol_error`). */
  run(target: ProbeTarget, ctx: ProbeContext): Promise<Observation>;
}

/** Builds one registry (each probe keeps small caches, e.g. TLS contexts; create one per process/runner). */
export function createProbeRegistry(overrides: Partial<Record<ProbeType, Probe>> = {}): ProbeRegistry {
  // One cache of TLS contexts per registry: an http and a tls monitor with the same CA share one.
  const secureContextFor = createSecureContextCache();
  const probes: Record<ProbeType, Probe> = {
    http: createHttpProbe(secureContextFor),
    tls: createTlsProbe(secureContextFor),
    tcp: createTcpProbe(),
    dns: createDnsProbe(),
    grpc: createGrpcProbe(),
    heartbeat: createHeartbeatProbe(),
    icmp: createIcmpProbe(),
    udp: createUdpProbe(),
    domain: createDomainProbe(),
    smtp: createSmtpProbe(secureContextFor),
    websocket: createWebsocketProbe(secureContextFor),
    postgres: createPostgresProbe(secureContextFor),
    mysql: createMysqlProbe(),
    redis: createRedisProbe(secureContextFor),
    ...overrides,
  };
  const registry: ProbeRegistry = {
    types: PROBE_TYPES,
    get: (type) => (Object.hasOwn(probes, type) ? probes[type as ProbeType] : undefined),
    run: (target, ctx) => runProbe(registry, target, ctx),
  };
  return registry;
}

/** Runs one check through a registry. Guarantees the contract: always resolves to an observation. */
export async function runProbe(
  registry: Pick<ProbeRegistry, 'get'>,
  target: ProbeTarget,
  ctx: ProbeContext,
): Promise<Observation> {
  const t0 = performance.now();
  let started_at: number;
  try {
    started_at = ctx.now();
  } catch {
    started_at = 0;
  }
  const probe = registry.get(target.type);
  if (!probe)
    return downObservation(started_at, t0, {
      code: 'invalid_target',
      message: `unknown monitor type ${JSON.stringify(target.type)}`,
    });
  try {
    return await probe(target, ctx);
  } catch (err) {
    const e = classifyError(err);
    return downObservation(started_at, t0, {
      code: e.code === 'protocol_error' ? 'protocol_error' : e.code,
      message: `probe failed: ${e.message}`,
    });
  }
}
