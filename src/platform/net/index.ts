/** Network address policy and the one outbound connector: every connection to a named host goes through here. */
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
export {
  createOutboundConnector,
  type OutboundConnector,
  type OutboundFetch,
  type OutboundRequestInit,
} from './outbound.connector.ts';
export { connectTcpTo, connectTlsTo, grpcTargetOf, type PinnedTlsOptions } from './vetted.sockets.ts';
export { startTlsOn } from './vetted.sockets.ts';
