/**
 * `network.allow_private_targets: false` at creation and update: a monitor whose target is, or resolves to, a
 * private or special-purpose address is refused with 422 before it is stored (the probes refuse it again at every
 * check, since DNS can change after this point).
 */
import type { ErrorDetail } from '../../platform/errors.ts';
import { PrivateTargetError, resolveVetted, type NetworkPolicy } from '../../platform/net/index.ts';
import { parseHostPort } from './monitor.targets.ts';
import type { MonitorConfig, MonitorType } from './monitor.types.ts';

export interface MonitorTargetGuard {
  /** The 422 details for a target this server may not check (empty when it may). */
  issuesOf(fields: { type: MonitorType; target: string; config: MonitorConfig }): Promise<ErrorDetail[]>;
}

/** A name that does not resolve in time is accepted here: the check-time guard judges what it resolves to later. */
const RESOLVE_TIMEOUT_MS = 3_000;

export function createMonitorTargetGuard(
  policy: NetworkPolicy,
  resolveTimeoutMs = RESOLVE_TIMEOUT_MS,
): MonitorTargetGuard {
  return {
    async issuesOf({ type, target, config }) {
      if (policy.allowPrivateTargets) return [];
      const checks = connectedHosts(type, target, config);
      const details: ErrorDetail[] = [];
      for (const { field, host } of checks) {
        const issue = await refusalOf(host, policy, resolveTimeoutMs);
        if (issue) details.push({ field, issue });
      }
      return details;
    },
  };
}

/** The hosts a check of this monitor connects to, with the field that names each. */
function connectedHosts(
  type: MonitorType,
  target: string,
  config: MonitorConfig,
): Array<{ field: string; host: string }> {
  switch (type) {
    case 'http':
      return [{ field: 'target', host: new URL(target).hostname }];
    case 'tls':
      if (target.startsWith('https://')) return [{ field: 'target', host: new URL(target).hostname }];
      return [{ field: 'target', host: parseHostPort(target)?.host ?? target }];
    case 'tcp':
    case 'grpc':
    case 'postgres':
    case 'mysql':
    case 'redis':
      return [{ field: 'target', host: parseHostPort(target)?.host ?? target }];
    case 'dns': {
      // The queried name is only asked about, never connected to; the resolver is where the packets go.
      const resolver = 'resolver' in config ? config.resolver : null;
      if (!resolver) return [];
      return [{ field: 'config.resolver', host: parseHostPort(resolver)?.host ?? resolver }];
    }
    case 'heartbeat':
      return [];
    case 'icmp':
      return [{ field: 'target', host: target.replace(/^\[|\]$/g, '') }];
    case 'udp':
      return [{ field: 'target', host: parseHostPort(target)?.host ?? target }];
    case 'domain': {
      // The domain is only asked about; the RDAP server is where the request goes (the bootstrap's are public).
      const base = 'rdap_base_url' in config ? config.rdap_base_url : undefined;
      return base ? [{ field: 'config.rdap_base_url', host: new URL(base).hostname.replace(/^\[|\]$/g, '') }] : [];
    }
    case 'smtp':
      return [{ field: 'target', host: parseHostPort(target)?.host ?? target }];
    case 'websocket':
      return [{ field: 'target', host: new URL(target).hostname }];
  }
}

async function refusalOf(host: string, policy: NetworkPolicy, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'gave up'>((resolve) => {
    timer = setTimeout(() => resolve('gave up'), timeoutMs);
  });
  try {
    await Promise.race([resolveVetted(host, policy), gaveUp]);
    return null;
  } catch (err) {
    if (err instanceof PrivateTargetError) return err.message;
    return null;
  } finally {
    clearTimeout(timer);
  }
}
