/**
 * Whether a domain's zone is signed and its signatures are anchored at the parent, asked of a recursive resolver
 * over UDP (TCP when the answer is truncated) with the DO bit (send DNSSEC records) and the CD bit (hand them over
 * even when the resolver's own validation fails, so a broken chain is seen rather than a SERVFAIL).
 *
 * What is measured: the zone apex (from the SOA), DNSKEY records at the apex and an RRSIG over them, an RRSIG over the
 * SOA, and a DS record for the apex from the parent. Signatures are not verified cryptographically and the chain is
 * not followed up to the root: "secure" means the zone publishes keys and signatures and the parent delegates to them
 * with a DS, which is what a validating resolver needs; the resolver's AD bit is reported when it validated.
 */
import { randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { getServers } from 'node:dns';
import * as dnsPacket from 'dns-packet';
import type { OutboundConnector } from '../../platform/net/index.ts';

export type DnssecStatus = 'secure' | 'insecure' | 'bogus';

export interface DnssecFacts {
  status: DnssecStatus;
  /** The zone apex the domain belongs to. */
  zone: string;
  dnskey: boolean;
  rrsig: boolean;
  ds: boolean;
  /** The resolver set the AD bit on the DNSKEY answer (it validated the chain itself). */
  validatedByResolver: boolean;
  /** One line for the grade's reasons. */
  detail: string;
}

interface DnsAnswer {
  /** AD bit, and whether the response code is NOERROR or NXDOMAIN (the name was answered for). */
  flags: { ad: boolean; answered: boolean };
  answers: dnsPacket.Answer[];
  authorities: dnsPacket.Answer[];
}

const EDNS_PAYLOAD = 1232;
const NOERROR = 0;
const NXDOMAIN = 3;

/** `host:port` (or `[v6]:port`, or a bare address) → address and port. */
function parseServer(server: string): { host: string; port: number } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
  if (v6) return { host: v6[1]!, port: Number(v6[2] ?? 53) };
  const parts = server.split(':');
  if (parts.length === 2) return { host: parts[0]!, port: Number(parts[1]) };
  return { host: server, port: 53 };
}

function queryPacket(name: string, type: dnsPacket.RecordType, id: number): dnsPacket.Packet {
  return {
    type: 'query',
    id,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.CHECKING_DISABLED,
    questions: [{ type, name, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: EDNS_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: dnsPacket.DNSSEC_OK,
        flag_do: true,
        options: [],
      },
    ],
  };
}

function toAnswer(p: dnsPacket.DecodedPacket): DnsAnswer {
  return {
    flags: { ad: p.flag_ad, answered: [NOERROR, NXDOMAIN].includes((p.flags ?? 0) & 0xf) },
    answers: p.answers ?? [],
    authorities: p.authorities ?? [],
  };
}

function askUdp(
  server: { host: string; port: number },
  packet: dnsPacket.Packet,
  timeoutMs: number,
): Promise<dnsPacket.DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(server.host.includes(':') ? 'udp6' : 'udp4');
    const timer = setTimeout(() => finish(new Error('DNS query timed out')), timeoutMs);
    const finish = (err: Error | null, answer?: dnsPacket.DecodedPacket) => {
      clearTimeout(timer);
      socket.close();
      if (err) reject(err);
      else resolve(answer!);
    };
    socket.on('error', (err) => finish(err));
    socket.on('message', (msg) => {
      try {
        const decoded = dnsPacket.decode(msg);
        if (decoded.id === packet.id) finish(null, decoded);
      } catch (err) {
        finish(err as Error);
      }
    });
    socket.send(dnsPacket.encode(packet), server.port, server.host);
  });
}

async function askTcp(
  server: DnsServerAddress,
  packet: dnsPacket.Packet,
  timeoutMs: number,
): Promise<dnsPacket.DecodedPacket> {
  // The resolver is the operator's (configured, or the system's): a trusted endpoint, still reached at one address.
  const socket = await server.connector.trusted().connectTcp(server.host, server.port);
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error('DNS query over TCP timed out')));
    socket.on('error', reject);
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(packet)));
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 2 || buffer.length < 2 + buffer.readUInt16BE(0)) return;
      socket.end();
      try {
        // The typings say Packet; the library returns the decoded form (flag_* fields included).
        resolve(dnsPacket.streamDecode(buffer) as dnsPacket.DecodedPacket);
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

interface DnsServerAddress {
  host: string;
  port: number;
  connector: OutboundConnector;
}

async function ask(
  server: DnsServerAddress,
  name: string,
  type: dnsPacket.RecordType,
  timeoutMs: number,
): Promise<DnsAnswer> {
  const packet = queryPacket(name, type, randomInt(1, 65_536));
  const udp = await askUdp(server, packet, timeoutMs);
  // A truncated answer (large DNSKEY sets) is asked again over TCP, as resolvers do.
  if (!udp.flag_tc) return toAnswer(udp);
  return toAnswer(await askTcp(server, packet, timeoutMs));
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

function has(answers: readonly dnsPacket.Answer[], name: string, type: string): boolean {
  return answers.some((a) => a.type === type && bare(a.name) === name);
}

function signs(answers: readonly dnsPacket.Answer[], name: string, covered: string): boolean {
  return answers.some(
    (a) =>
      a.type === 'RRSIG' &&
      bare(a.name) === name &&
      (a.data as dnsPacket.RrsigData | undefined)?.typeCovered === covered,
  );
}

/**
 * The DNSSEC facts of `domain`, or undefined when the resolver could not be asked (timeout, refusal, no answer):
 * then DNSSEC is "not tested", never "insecure".
 */
export async function measureDnssec(
  domain: string,
  o: { resolver?: string; timeoutMs: number; connector: OutboundConnector },
): Promise<DnssecFacts | undefined> {
  const configured = o.resolver ?? getServers()[0];
  if (!configured) return undefined;
  const server = { ...parseServer(configured), connector: o.connector };
  const name = bare(domain);
  try {
    // The zone apex: the SOA itself when the name is one, else the SOA in the authority section.
    const soa = await ask(server, name, 'SOA', o.timeoutMs);
    if (!soa.flags.answered) return undefined;
    const soaRecord = [...soa.answers, ...soa.authorities].find((a) => a.type === 'SOA');
    if (!soaRecord) return undefined;
    const zone = bare(soaRecord.name);
    const soaAtApex = zone === name ? soa : await ask(server, zone, 'SOA', o.timeoutMs);
    const keys = await ask(server, zone, 'DNSKEY', o.timeoutMs);
    const delegation = await ask(server, zone, 'DS', o.timeoutMs);
    if (!soaAtApex.flags.answered || !keys.flags.answered || !delegation.flags.answered) return undefined;
    const dnskey = has(keys.answers, zone, 'DNSKEY');
    const rrsig = signs(keys.answers, zone, 'DNSKEY') && signs(soaAtApex.answers, zone, 'SOA');
    const ds = has(delegation.answers, zone, 'DS');
    const validatedByResolver = keys.flags.ad;
    let status: DnssecStatus;
    let detail: string;
    if (ds && dnskey && rrsig) {
      status = 'secure';
      detail = `DNSSEC: zone ${zone} is signed (DNSKEY and RRSIG) with a DS at the parent${validatedByResolver ? '; the resolver validated it' : '; signatures not verified'}`;
    } else if (ds) {
      status = 'bogus';
      detail = `DNSSEC broken: the parent has a DS for ${zone} but the zone serves ${dnskey ? 'no RRSIG over its keys and SOA' : 'no DNSKEY'} (validating resolvers fail it)`;
    } else {
      status = 'insecure';
      detail =
        dnskey && rrsig
          ? `DNSSEC not anchored: zone ${zone} is signed but the parent has no DS for it`
          : `DNSSEC not enabled: zone ${zone} is not signed`;
    }
    return { status, zone, dnskey, rrsig, ds, validatedByResolver, detail };
  } catch {
    return undefined;
  }
}
