/** Network address policy shared by the probes, the alert senders and monitor validation. */
export { isPublicAddress, specialAddressIssue, specialAddressKind, ipBytes } from './address.classification.ts';
export { IPV4_RULES, IPV6_RULES, type AddressRule } from './address.ranges.ts';
export {
  ALLOW_PRIVATE_KEY,
  PrivateTargetError,
  canonicalHost,
  createDnsServerResolver,
  refusalOf,
  resolveVetted,
  systemResolver,
  type HostResolver,
  type NetworkPolicy,
  type ResolvedAddress,
  type VettedHost,
} from './host.resolution.ts';
export { createPinnedResolution, type PinnedResolution } from './host.lookup.ts';
