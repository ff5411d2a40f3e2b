/**
 * Is this IP address one a server may be asked to connect to when private targets are refused?
 * One implementation for the probes, the alert senders and monitor validation.
 */
import { isIP } from 'node:net';
import { IPV4_RULES, IPV6_RULES, type AddressRule } from './address.ranges.ts';

interface ParsedRule extends AddressRule {
  bytes: Uint8Array;
  prefix: number;
}

const V4 = IPV4_RULES.map((rule) => parseRule(rule, 4));
const V6 = IPV6_RULES.map((rule) => parseRule(rule, 6));

/**
 * Why `address` is refused as a target (e.g. "127.0.0.1 is a loopback address (127.0.0.0/8)"), or null when it is
 * a public address. Anything that is not an IP literal is refused (the guard is meant for resolved addresses).
 */
export function specialAddressIssue(address: string): string | null {
  const kind = specialAddressKind(address);
  return kind === null ? null : `${address} is ${kind}`;
}

/**
 * What kind of refused address `address` is ("a loopback address (127.0.0.0/8)", "not an IP address"), or null
 * when it is a public address: for sentences that name the address themselves ("x resolves to 127.0.0.1, a …").
 */
export function specialAddressKind(address: string): string | null {
  const bytes = ipBytes(address);
  if (!bytes) return 'not an IP address';
  return specialKindOf(bytes);
}

export function isPublicAddress(address: string): boolean {
  return specialAddressIssue(address) === null;
}

/** "a loopback address (127.0.0.0/8)", or null for a public address. */
function specialKindOf(bytes: Uint8Array): string | null {
  const rule = mostSpecific(bytes.length === 4 ? V4 : V6, bytes);
  if (!rule) return null;
  const kind = `${rule.name} (${rule.cidr})`;
  if (rule.embedsIPv4At === undefined) return rule.reachable ? null : kind;
  const v4 = bytes.subarray(rule.embedsIPv4At, rule.embedsIPv4At + 4);
  const embedded = specialKindOf(v4);
  if (embedded) return `${kind} embedding ${v4.join('.')}, ${embedded}`;
  return rule.reachable ? null : `${kind} embedding ${v4.join('.')}`;
}

function mostSpecific(rules: readonly ParsedRule[], bytes: Uint8Array): ParsedRule | undefined {
  let best: ParsedRule | undefined;
  for (const rule of rules) {
    if ((best === undefined || rule.prefix > best.prefix) && within(bytes, rule.bytes, rule.prefix)) best = rule;
  }
  return best;
}

function within(bytes: Uint8Array, network: Uint8Array, prefix: number): boolean {
  let bits = prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (network[i]! & mask)) return false;
  }
  return true;
}

function parseRule(rule: AddressRule, family: 4 | 6): ParsedRule {
  const [network, prefix] = rule.cidr.split('/');
  const bytes = ipBytes(network!);
  if (!bytes || bytes.length !== (family === 4 ? 4 : 16)) throw new Error(`bad rule ${rule.cidr}`);
  return { ...rule, bytes, prefix: Number(prefix) };
}

/** The 4 or 16 bytes of an IP literal (IPv6 may carry a zone `%eth0` and a dotted IPv4 tail), or null. */
export function ipBytes(address: string): Uint8Array | null {
  const family = isIP(address);
  if (family === 4) return Uint8Array.from(address.split('.').map(Number));
  if (family !== 6) return null;
  let text = address.split('%')[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const groupsOf = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const first = groupsOf(head);
  const last = groupsOf(tail);
  const groups =
    tail === undefined ? first : [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last];
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    const value = parseInt(group, 16);
    bytes[2 * i] = value >> 8;
    bytes[2 * i + 1] = value & 0xff;
  });
  return bytes;
}
