/**
 * Resolving a target's host once and vetting every address before anything connects to it.
 *
 * A name is resolved through an injectable {@link HostResolver} (the system's `getaddrinfo` by default; tests use a
 * local DNS server), every address it returns is checked against the special-purpose ranges when private targets are
 * refused, and the caller connects to the vetted address (directly, or through {@link createPinnedResolution}'s
 * `lookup`), so a second DNS answer can never send the connection elsewhere (DNS rebinding).
 */
import { lookup as systemLookup } from 'node:dns/promises';
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import { specialAddressKind } from './address.classification.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a name resolves to; rejects (with the resolver's error code, e.g. ENOTFOUND) when none. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface NetworkPolicy {
  /** `network.allow_private_targets`. */
  allowPrivateTargets: boolean;
  resolver: HostResolver;
}

export interface VettedHost extends ResolvedAddress {
  /** The address to connect to is `address`; these are all the addresses the name had (all vetted). */
  addresses: ResolvedAddress[];
  /** Whether DNS was asked (false for an IP literal). */
  resolved: boolean;
}

/** The config key named in every refusal, so that an operator knows what to change. */
export const ALLOW_PRIVATE_KEY = 'network.allow_private_targets';

/** A target refused because it is, or resolves to, a private or special-purpose address. */
export class PrivateTargetError extends Error {
  readonly code = 'EPRIVATETARGET';
  constructor(message: string) {
    super(message);
    this.name = 'PrivateTargetError';
  }
}

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address in the system's order. */
export const systemResolver: HostResolver = async (hostname) =>
  (await systemLookup(hostname, { all: true, order: 'verbatim' })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** A resolver that asks the given DNS servers (`ip[:port]`) for A and AAAA records, without the hosts file. */
export function createDnsServerResolver(servers: string[], timeoutMs = 5_000): HostResolver {
  return async (hostname) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    resolver.setServers(servers);
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const addresses: ResolvedAddress[] = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length === 0) throw v4.status === 'rejected' ? v4.reason : new Error(`${hostname} has no address`);
    return addresses;
  };
}

/**
 * The host as a connection would see it: brackets removed, and the IPv4 shorthands `getaddrinfo` and the WHATWG URL
 * parser accept (`2130706433`, `0x7f.1`, `0177.0.0.1`, `127.1`) turned into the dotted address they stand for, so the
 * guard judges the address that would really be used.
 */
export function canonicalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) || /[^a-z0-9._-]/i.test(bare)) return bare;
  try {
    return new URL(`http://${bare}/`).hostname;
  } catch {
    return bare;
  }
}

/** Why `address` may not be used, phrased for the user, or null when it may. */
export function refusalOf(host: string, address: string): string | null {
  const kind = specialAddressKind(address);
  if (kind === null) return null;
  const subject = host === address ? `${address} is ${kind}` : `${host} resolves to ${address}, ${kind}`;
  return `${subject}; this server refuses private and special-purpose targets (${ALLOW_PRIVATE_KEY} is false)`;
}

/**
 * Resolves `host` once (an IP literal is not resolved) and, when private targets are refused, vets every address:
 * one special-purpose address among them refuses the host (PrivateTargetError).
 */
export async function resolveVetted(host: string, policy: NetworkPolicy): Promise<VettedHost> {
  const name = canonicalHost(host);
  const family = isIP(name);
  const addresses: ResolvedAddress[] = family ? [{ address: name, family: family === 6 ? 6 : 4 }] : [];
  if (!family) addresses.push(...(await policy.resolver(name)));
  const first = addresses[0];
  if (!first) throw Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' });
  if (!policy.allowPrivateTargets) {
    for (const { address } of addresses) {
      const refusal = refusalOf(name, address);
      if (refusal) throw new PrivateTargetError(refusal);
    }
  }
  return { ...first, addresses, resolved: !family };
}
