/** DNS probe: resolves one record type through the system resolver or a given `ip[:port]` resolver. */
import { Resolver } from 'node:dns/promises';
import type { MxRecord } from 'node:dns';
import { isIP } from 'node:net';
import type { Observation, Probe, ProbeContext, ProbeError, ProbeTarget } from '../probe.contract.ts';
import { canonicalHost, refusalOf } from '../../../../platform/net/index.ts';
import { classifyError, num, ProbeFailure, parseHostPort } from '../probe.net.ts';
import { runProbeWithin, type Outcome } from '../probe.run.ts';

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
  return function dnsProbe(target: ProbeTarget, ctx: ProbeContext): Promise<Observation> {
    const cfg = target.config;
    const timeoutMs = num(cfg.timeout_ms, 10_000);
    const type = (typeof cfg.record_type === 'string' ? cfg.record_type.toUpperCase() : 'A') as DnsRecordType;
    const name = target.target.trim().replace(/\.$/, '');
    const options = {
      timeoutMs,
      timeoutMessage: `no DNS answer for ${name} within ${timeoutMs} ms`,
      // The whole check is DNS; a failure still says which record type was asked.
      onFailure(obs: Observation) {
        obs.timings.dns_ms = obs.duration_ms;
        obs.details = { record_type: type, answers: [] };
      },
    };
    return runProbeWithin(ctx, options, async (run) => {
      if (!DNS_RECORD_TYPES.includes(type))
        throw new ProbeFailure('invalid_target', `unsupported record type ${String(cfg.record_type)}`);
      if (!name || name.length > 253 || !DNS_NAME.test(name)) {
        throw new ProbeFailure('invalid_target', `not a valid DNS name: ${JSON.stringify(target.target)}`);
      }
      const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      const resolverLabel =
        typeof cfg.resolver === 'string' && cfg.resolver ? useResolver(resolver, cfg.resolver, ctx) : null;
      run.onAbort(() => resolver.cancel());
      let answers: string[];
      try {
        answers = await run.race(query(resolver, name, type));
      } catch (err) {
        if (run.abortReason) throw err;
        const e = dnsError(err, name, type);
        throw new ProbeFailure(e.code, e.message);
      }
      const observation = run.observation(expectationVerdict(answers, type, cfg.expected));
      observation.details = { record_type: type, answers, resolver: resolverLabel };
      observation.timings.dns_ms = observation.duration_ms;
      return observation;
    });
  };
}

const DNS_NAME = /^[a-z0-9_*]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/i;

/** Points the resolver at the monitor's `ip[:port]` resolver (vetted like any target); returns its label. */
function useResolver(resolver: Resolver, configured: string, ctx: ProbeContext): string {
  const { host: given, port } = parseHostPort(configured, 53);
  const host = canonicalHost(given);
  if (!isIP(host)) {
    throw new ProbeFailure(
      'invalid_target',
      `resolver must be an IP address with an optional port, got ${JSON.stringify(configured)}`,
    );
  }
  if (!ctx.allowPrivateTargets) {
    const refusal = refusalOf(host, host);
    if (refusal) throw new ProbeFailure('private_target', `resolver ${refusal}`);
  }
  const label = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  resolver.setServers([label]);
  return label;
}

function expectationVerdict(answers: string[], type: DnsRecordType, expectedValues: unknown): Outcome {
  const expected = Array.isArray(expectedValues)
    ? expectedValues.filter((e): e is string => typeof e === 'string')
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
  return { error };
}
