/**
 * The IANA IPv4 and IPv6 Special-Purpose Address Registries (plus multicast, the deprecated site-local block and
 * the IPv6 space outside global unicast), as rules for the private-target guard.
 *
 * The most specific rule that contains an address decides (longest prefix). `reachable` follows the registries'
 * "Globally Reachable" column: `false` (and "N/A") is refused, `true` marks the few public anycast/service blocks
 * carved out of a refused block. `embedsIPv4At` marks the IPv6 forms that carry an IPv4 address (the byte offset of
 * those four bytes): such an address is judged by the IPv4 address it embeds, unless the form itself is refused.
 */
export interface AddressRule {
  /** CIDR notation, e.g. `10.0.0.0/8`. */
  cidr: string;
  /** What the block is, as a sentence fragment: "a private-use address". */
  name: string;
  reachable: boolean;
  embedsIPv4At?: number;
}

export const IPV4_RULES: readonly AddressRule[] = [
  { cidr: '0.0.0.0/8', name: 'a "this network" address', reachable: false },
  { cidr: '10.0.0.0/8', name: 'a private-use address', reachable: false },
  { cidr: '100.64.0.0/10', name: 'a shared (carrier-grade NAT) address', reachable: false },
  { cidr: '127.0.0.0/8', name: 'a loopback address', reachable: false },
  { cidr: '169.254.0.0/16', name: 'a link-local address', reachable: false },
  { cidr: '172.16.0.0/12', name: 'a private-use address', reachable: false },
  { cidr: '192.0.0.0/24', name: 'an IETF protocol assignment', reachable: false },
  { cidr: '192.0.0.9/32', name: 'the Port Control Protocol anycast address', reachable: true },
  { cidr: '192.0.0.10/32', name: 'the TURN anycast address', reachable: true },
  { cidr: '192.0.2.0/24', name: 'a documentation address (TEST-NET-1)', reachable: false },
  { cidr: '192.88.99.0/24', name: 'a deprecated 6to4 relay anycast address', reachable: false },
  { cidr: '192.168.0.0/16', name: 'a private-use address', reachable: false },
  { cidr: '198.18.0.0/15', name: 'a benchmarking address', reachable: false },
  { cidr: '198.51.100.0/24', name: 'a documentation address (TEST-NET-2)', reachable: false },
  { cidr: '203.0.113.0/24', name: 'a documentation address (TEST-NET-3)', reachable: false },
  { cidr: '224.0.0.0/4', name: 'a multicast address', reachable: false },
  { cidr: '240.0.0.0/4', name: 'a reserved address', reachable: false },
  { cidr: '255.255.255.255/32', name: 'the limited broadcast address', reachable: false },
];

export const IPV6_RULES: readonly AddressRule[] = [
  // Everything outside 2000::/3 is unassigned or special; the blocks below name the special ones.
  { cidr: '::/0', name: 'a reserved address outside global unicast 2000::/3', reachable: false },
  { cidr: '2000::/3', name: 'a global unicast address', reachable: true },
  { cidr: '::/128', name: 'the unspecified address', reachable: false },
  { cidr: '::1/128', name: 'the loopback address', reachable: false },
  { cidr: '::/96', name: 'a deprecated IPv4-compatible address', reachable: false, embedsIPv4At: 12 },
  { cidr: '::ffff:0:0/96', name: 'an IPv4-mapped address', reachable: true, embedsIPv4At: 12 },
  { cidr: '::ffff:0:0:0/96', name: 'an IPv4-translated (SIIT) address', reachable: false, embedsIPv4At: 12 },
  { cidr: '64:ff9b::/96', name: 'a NAT64 address', reachable: true, embedsIPv4At: 12 },
  { cidr: '64:ff9b:1::/48', name: 'a local-use NAT64 address', reachable: false },
  { cidr: '100::/64', name: 'a discard-only address', reachable: false },
  { cidr: '100:0:0:1::/64', name: 'a dummy IPv6 prefix address', reachable: false },
  { cidr: '2001::/23', name: 'an IETF protocol assignment', reachable: false },
  { cidr: '2001::/32', name: 'a Teredo tunnel address', reachable: false },
  { cidr: '2001:1::1/128', name: 'the Port Control Protocol anycast address', reachable: true },
  { cidr: '2001:1::2/128', name: 'the TURN anycast address', reachable: true },
  { cidr: '2001:1::3/128', name: 'the DNS-SD service registration anycast address', reachable: true },
  { cidr: '2001:2::/48', name: 'a benchmarking address', reachable: false },
  { cidr: '2001:3::/32', name: 'an AMT address', reachable: true },
  { cidr: '2001:4:112::/48', name: 'an AS112 address', reachable: true },
  { cidr: '2001:10::/28', name: 'a deprecated ORCHID address', reachable: false },
  { cidr: '2001:20::/28', name: 'an ORCHIDv2 address', reachable: true },
  { cidr: '2001:30::/28', name: 'a drone remote ID address', reachable: true },
  { cidr: '2001:db8::/32', name: 'a documentation address', reachable: false },
  { cidr: '2002::/16', name: 'a 6to4 address', reachable: true, embedsIPv4At: 2 },
  { cidr: '3fff::/20', name: 'a documentation address', reachable: false },
  { cidr: '5f00::/16', name: 'a segment routing (SRv6) address', reachable: false },
  { cidr: 'fc00::/7', name: 'a unique-local (private) address', reachable: false },
  { cidr: 'fe80::/10', name: 'a link-local address', reachable: false },
  { cidr: 'fec0::/10', name: 'a deprecated site-local address', reachable: false },
  { cidr: 'ff00::/8', name: 'a multicast address', reachable: false },
];
