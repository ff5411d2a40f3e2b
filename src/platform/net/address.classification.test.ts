import { describe, expect, it } from 'vitest';
import { IPV4_RULES, IPV6_RULES, canonicalHost, isPublicAddress, specialAddressIssue } from './index.ts';

describe('specialAddressIssue', () => {
  it.each([
    // IPv4 special-purpose registry, multicast and broadcast
    ['0.0.0.0', '"this network"'],
    ['0.1.2.3', '"this network"'],
    ['10.1.2.3', 'private-use'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'private-use'],
    ['172.31.255.255', 'private-use'],
    ['192.0.0.1', 'IETF protocol assignment'],
    ['192.0.0.170', 'IETF protocol assignment'],
    ['192.0.2.7', 'TEST-NET-1'],
    ['192.88.99.1', '6to4 relay'],
    ['192.168.1.1', 'private-use'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.1', 'TEST-NET-2'],
    ['203.0.113.9', 'TEST-NET-3'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'limited broadcast'],
    // IPv6 special-purpose registry
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['100::1', 'discard-only'],
    ['100:0:0:1::1', 'dummy'],
    ['2001:2::1', 'benchmarking'],
    ['2001:10::1', 'ORCHID'],
    ['2001:100::1', 'IETF protocol assignment'],
    ['64:ff9b:1::a00:1', 'local-use NAT64'],
    ['5f00::1', 'segment routing'],
    ['4000::1', 'outside global unicast'],
    ['::2', 'IPv4-compatible'],
    // IPv6 forms that embed an IPv4 address
    ['::7f00:1', 'IPv4-compatible address (::/96) embedding 127.0.0.1, a loopback'],
    ['::127.0.0.1', 'IPv4-compatible address (::/96) embedding 127.0.0.1, a loopback'],
    ['::808:808', 'IPv4-compatible address (::/96) embedding 8.8.8.8'],
    ['::ffff:127.0.0.1', 'IPv4-mapped address (::ffff:0:0/96) embedding 127.0.0.1, a loopback'],
    ['::ffff:7f00:1', 'embedding 127.0.0.1'],
    ['::ffff:a9fe:a9fe', 'embedding 169.254.169.254, a link-local'],
    ['::ffff:0:7f00:1', 'IPv4-translated (SIIT) address (::ffff:0:0:0/96) embedding 127.0.0.1'],
    ['::ffff:0:808:808', 'IPv4-translated (SIIT) address (::ffff:0:0:0/96) embedding 8.8.8.8'],
    ['2002:7f00:1::1', '6to4 address (2002::/16) embedding 127.0.0.1, a loopback'],
    ['2002:c0a8:101::', '6to4 address (2002::/16) embedding 192.168.1.1, a private-use'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['64:ff9b::7f00:1', 'NAT64 address (64:ff9b::/96) embedding 127.0.0.1, a loopback'],
    ['64:ff9b::10.0.0.1', 'NAT64 address (64:ff9b::/96) embedding 10.0.0.1, a private-use'],
    ['not-an-ip', 'not an IP address'],
    ['localhost', 'not an IP address'],
  ])('refuses %s (%s)', (address, why) => {
    const issue = specialAddressIssue(address);
    expect(issue).toContain(why);
    expect(issue?.startsWith(address)).toBe(true);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.0.9',
    '192.0.0.10',
    '192.31.196.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '2001:1::1',
    '2001:4:112::1',
    '2001:20::1',
  ])('accepts the globally reachable %s', (address) => {
    expect(specialAddressIssue(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });

  it('has well-formed rules only (every CIDR parses at load)', () => {
    expect(IPV4_RULES.length).toBeGreaterThan(15);
    expect(IPV6_RULES.length).toBeGreaterThan(25);
  });
});

describe('literal host forms, as the WHATWG URL parser and getaddrinfo read them', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://0x0a.0/', '10.0.0.0'],
    ['http://169.254.43518/', '169.254.169.254'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://[::7f00:1]/', '::7f00:1'],
    ['http://[::127.0.0.1]/', '::7f00:1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:7f00:1'],
    ['http://[2002:7f00:1::]/', '2002:7f00:1::'],
    ['http://[64:ff9b::7f00:1]/', '64:ff9b::7f00:1'],
  ])('%s is %s, and refused', (url, address) => {
    const host = canonicalHost(new URL(url).hostname);
    expect(host).toBe(address);
    expect(specialAddressIssue(host)).not.toBeNull();
  });

  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['[::7f00:1]', '::7f00:1'],
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
  ])('host %s (host:port targets) is read as %s', (host, canonical) => {
    expect(canonicalHost(host)).toBe(canonical);
  });
});
