/** DNS probe: resolves one record type through the system resolver or a given `ip[:port]` resolver. */
import { Resolver } from 'node:dns/promises';
import type { MxRecord } from 'node:dns';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import {
  classifyError,
  downObservation,
  emptyTimings,
  isPrivateAddress,
  num,
  ProbeFailure,
  parseHostPort,
  round,
} from '../probe.net.ts';

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

function normalise(s: string): string {
  return s.trim().toLowerCase().replace(/\.$/, '');
}

async function query(resolver: Resolver, name: string, type: DnsRecordType): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'NS':
      return resolver.resolveNs(name);
    case 'MX':
      return (await resolver.resolveMx(name))
        .sort((a: MxRecord, b: MxRecord) => a.priority - b.priority)
        .map((m) => `${m.priority} ${m.exchange}`);
    case 'TXT':
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
  }
}

function dnsError(err: unknown, name: string, type: string): ProbeError {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  switch (code) {
    case 'ENOTFOUND':
      return { code: 'dns', message: `${name} does not exist (NXDOMAIN)` };
    case 'ENODATA':
      return { code: 'dns', message: `${name} has no ${type} records` };
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return { code: 'timeout', message: `no DNS answer for ${name}` };
    case 'ECONNREFUSED':
      return { code: 'connect_refused', message: `the resolver refused the connection` };
    case 'ESERVFAIL':
    case 'EREFUSED':
    case 'EBADRESP':
    case 'EFORMERR':
    case 'ENOTIMP':
    case 'EBADNAME':
    case 'EBADQUERY':
      return { code: 'dns', message: `${name} ${type}: ${code}` };
  }
  return classifyError(err);
}

export function createDnsProbe(): Probe {
  return async function dnsProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const t0 = performance.now();
    const started_at = ctx.now();
    const cfg = target.config;
    const timeoutMs = num(cfg.timeout_ms, 10_000);
    const type = (typeof cfg.record_type === 'string' ? cfg.record_type.toUpperCase() : 'A') as DnsRecordType;
    const name = target.target.trim().replace(/\.$/, '');
    let timer: NodeJS.Timeout | undefined;
    let resolver: Resolver | undefined;
    const onAbort = (): void => resolver?.cancel();
    try {
      if (!DNS_RECORD_TYPES.includes(type))
        throw new ProbeFailure('invalid_target', `unsupported record type ${String(cfg.record_type)}`);
      if (
        !name ||
        name.length > 253 ||
        !/^[a-z0-9_*]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/i.test(name)
      ) {
        throw new ProbeFailure('invalid_target', `not a valid DNS name: ${JSON.stringify(target.target)}`);
      }
      resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      let resolverLabel: string | null = null;
      if (typeof cfg.resolver === 'string' && cfg.resolver) {
        const { host, port } = parseHostPort(cfg.resolver, 53);
        if (!ctx.allowPrivateTargets && isPrivateAddress(host))
          throw new ProbeFailure('private_target', `resolver ${host} is not a public address`);
        resolverLabel = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
        try {
          resolver.setServers([resolverLabel]);
        } catch {
          throw new ProbeFailure(
            'invalid_target',
            `resolver must be an IP address with an optional port, got ${JSON.stringify(cfg.resolver)}`,
          );
        }
      }
      const r = resolver;
      timer = setTimeout(() => r.cancel(), timeoutMs);
      if (ctx.signal?.aborted) r.cancel();
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      let answers: string[];
      try {
        answers = await query(r, name, type);
      } catch (err) {
        throw Object.assign(new ProbeFailure('dns', ''), { dnsError: dnsError(err, name, type) });
      }
      const total_ms = round(performance.now() - t0);
      const timings = { ...emptyTimings(total_ms), dns_ms: total_ms };
      const details = { record_type: type, answers, resolver: resolverLabel };
      const expected = Array.isArray(cfg.expected)
        ? cfg.expected.filter((e): e is string => typeof e === 'string')
        : [];
      const have = new Set<string>();
      for (const a of answers) {
        have.add(normalise(a));
        if (type === 'MX') have.add(normalise(a.replace(/^\d+\s+/, '')));
      }
      const missing = expected.filter((e) => !have.has(normalise(e)));
      const error: ProbeError | null = missing.length
        ? {
            code: 'dns_mismatch',
            message: `${type} answers ${JSON.stringify(answers)} do not include ${JSON.stringify(missing)}`,
          }
        : null;
      return {
        status: error ? 'down' : 'up',
        started_at,
        duration_ms: total_ms,
        timings,
        http_status: null,
        assertions: [],
        error,
        details,
      };
    } catch (err) {
      const e = (err as { dnsError?: ProbeError }).dnsError ?? classifyError(err);
      const obs = downObservation(started_at, t0, e, { details: { record_type: type, answers: [] } });
      obs.timings.dns_ms = obs.duration_ms;
      return obs;
    } finally {
      if (timer) clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', onAbort);
    }
  };
}
